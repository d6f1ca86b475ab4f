package diagnose

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// A MIG GPU has no GPU-Util: its SM activity says whether it works, so it
// is counted busy or idle instead of drawn like a GPU that fell off the
// bus; only a lost GPU is lost, and a MIG GPU without GPM is unmeasured.
func TestNodeBalanceCountsMIGByActivity(t *testing.T) {
	var w []sampler.Snapshot
	for i := range 10 {
		w = append(w, sampler.Snapshot{Time: time.Unix(int64(i), 0), GPUs: []sampler.GPU{
			{Index: 0, Util: sampler.Some(90), Procs: []sampler.GPUProc{{PID: 1}}},
			{Index: 1, MIG: true, SMActive: sampler.Some(60), MIGDevices: []sampler.MIGDevice{{Procs: []sampler.GPUProc{{PID: 2}}}}},
			{Index: 2, MIG: true},
			{Index: 3, Lost: true},
			{Index: 4, Util: sampler.Some(0)},
		}})
	}
	b := NodeBalance(w)
	want := []float64{90, 60, BalanceUnmeasured, BalanceLost, 0}
	for i, v := range want {
		if b.Busy[i] != v {
			t.Errorf("GPU %d busy %v, want %v", i, b.Busy[i], v)
		}
	}
	if busy, idle := b.Counts(); busy != 2 || idle != 1 {
		t.Errorf("busy %d idle %d, want 2 and 1", busy, idle)
	}
	if !b.HasJob[1] {
		t.Error("the MIG GPU's instance has a process: it has a job")
	}
	if pts, hi, lo, ok := b.Spread(); !ok || hi != 0 || lo != 1 || pts != 30 {
		t.Errorf("spread %v %d %d %v", pts, hi, lo, ok)
	}
}
