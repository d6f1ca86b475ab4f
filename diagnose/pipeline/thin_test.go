package pipeline

import (
	"reflect"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/node"
)

// The live collector's window keeps one snapshot a second at --interval
// 100ms (diagnose.Options.Thin): every diagnosis is the one a tracker fed
// only the 1 s snapshots gives, findings, levels and checklists, and the
// window holds a 1 s window's snapshots, not ten times as many.
func TestThinnedWindowDiagnosesAsAt1s(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d, err := node.NewDemo("input_starved", 1, start)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Sampler("input_starved")
	col := New(&sampler.Sampler{}, Options{})
	at1s := diagnose.NewViewTracker(diagnose.Options{})
	var want *diagnose.Diagnosis
	evals := 0
	for i := range 1800 { // 3 minutes at 100 ms
		snap := s.Tick(start.Add(time.Duration(i) * 100 * time.Millisecond))
		if i%10 == 0 {
			want = at1s.Observe(snap).Diagnosis
		}
		got := col.Push(snap).Diagnosis
		if got.At != want.At {
			t.Fatalf("tick %d: diagnosed at %v, the 1 s tracker at %v", i, got.At, want.At)
		}
		if i%10 != 0 {
			continue
		}
		evals++
		if got.Samples != want.Samples || got.Samples > 121 {
			t.Fatalf("tick %d: %d snapshots in the window, the 1 s tracker %d", i, got.Samples, want.Samples)
		}
		if !reflect.DeepEqual(got.Findings, want.Findings) || !reflect.DeepEqual(got.Levels, want.Levels) || !reflect.DeepEqual(got.Checklists, want.Checklists) {
			t.Fatalf("tick %d: the thinned diagnosis differs from the 1 s one:\n%+v\n%+v", i, got.Findings, want.Findings)
		}
	}
	if evals != 180 || len(want.Findings) == 0 {
		t.Errorf("%d evaluations, %d findings at the end; want 180 and input_starved's findings", evals, len(want.Findings))
	}
}
