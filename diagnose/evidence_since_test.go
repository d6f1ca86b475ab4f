package diagnose

import (
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// An evidence finding's Since is the evaluation that first made it, kept
// while later ones make it again, not the window's first snapshot: a log
// whose GPU starts spinning 10 s in says so from then (check and report
// agree within one stride: oneloop_test.go).
func TestEvidenceSinceIsWhenFirstMade(t *testing.T) {
	x := NewEvidenceEngine(Options{})
	var w []sampler.Snapshot
	var got []Finding
	for i := 0; i < 16; i++ {
		g := busyGPU(0, 0, 60, 700)
		if i >= 10 {
			g = busyGPU(0, 100, 60, 700) // 100 % at 9 % of the limit: spinning
		}
		w = append(w, evSnap(i, g))
		got = x.Evaluate(w)
	}
	f := requireRule(t, got, RuleLaunchBound, 0)
	if !f.Since.Equal(w[10].Time) {
		t.Errorf("since %s, want %s (the first evaluation that made it), not the window's start %s",
			f.Since.Format("15:04:05"), w[10].Time.Format("15:04:05"), w[0].Time.Format("15:04:05"))
	}
}
