package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestHistoryKeepsSpan(t *testing.T) {
	h := History{Span: 10 * time.Second}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var w []sampler.Snapshot
	for i := 0; i < 30; i++ {
		w = h.Push(sampler.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i)})
	}
	if len(w) != 11 || w[0].Seq != 19 || w[len(w)-1].Seq != 29 {
		t.Fatalf("window = %d snapshots from seq %d to %d, want 11 from 19 to 29", len(w), w[0].Seq, w[len(w)-1].Seq)
	}
	// A gap longer than the span keeps only the newest snapshot.
	w = h.Push(sampler.Snapshot{Time: t0.Add(time.Hour), Seq: 99})
	if len(w) != 1 || w[0].Seq != 99 {
		t.Fatalf("after a gap: %d snapshots", len(w))
	}
	h.Reset()
	if w = h.Push(sampler.Snapshot{Time: t0}); len(w) != 1 {
		t.Fatalf("after reset: %d", len(w))
	}
}

// Bug found in use: "1 processes on 1 of 8 GPUs" in step 1.
func TestChecklistOneProcessSingular(t *testing.T) {
	g := sampler.GPU{Index: 0, Procs: []sampler.GPUProc{{PID: 7, Type: "C"}}}
	snap := sampler.Snapshot{Time: time.Unix(0, 0), GPUs: []sampler.GPU{g, {Index: 1}}}
	steps := Checklist([]sampler.Snapshot{snap}, nil)
	if !strings.Contains(steps[0].Detail, "1 process on 1 of 2 GPUs") {
		t.Errorf("step 1: %q", steps[0].Detail)
	}
}
