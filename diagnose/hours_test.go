package diagnose

import (
	"math"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Hours gives each interval to the GPU's holder, weighted by busy for
// "used"; a pause longer than MaxSampleGap counts nothing, and a GPU with
// no busy reading is held but unmeasured.
func TestHoursCountsHeldAndUsed(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	snap := func(at time.Duration, util sampler.Metric) sampler.Snapshot {
		return sampler.Snapshot{Time: t0.Add(at), GPUs: []sampler.GPU{
			{Index: 0, UUID: "GPU-a", Job: "42", Owner: "frank", Util: util},
			{Index: 1, UUID: "GPU-b", Job: "42", Owner: "frank", Util: sampler.Some(0)},
			{Index: 2, UUID: "GPU-c"}, // nobody's
		}}
	}
	var h Hours
	for _, s := range []sampler.Snapshot{
		snap(0, sampler.Some(50)),
		snap(10*time.Second, sampler.Some(50)),          // +10 s each, GPU 0 half busy
		snap(20*time.Second, sampler.NA),                // +10 s each, GPU 0 unmeasured
		snap(20*time.Second+2*MaxSampleGap, sampler.NA), // a pause: nothing
	} {
		h.Add(&s)
	}
	got := h.By[HolderKey{HolderSlurm, "42", "frank"}]
	if got == nil || len(h.By) != 1 {
		t.Fatalf("holders %v, want job 42 of frank only", h.By)
	}
	if got.Held != 40 || math.Abs(got.Used-5) > 1e-9 || got.Unmeasured != 10 || len(got.GPUs) != 2 {
		t.Errorf("job 42: held %v used %v unmeasured %v GPUs %v, want 40, 5, 10, [0 1]", got.Held, got.Used, got.Unmeasured, got.GPUs)
	}
}

// A GPU whose holder changes between samples gives each interval to the
// holder of its sample: a new job, a new main process, its parent renamed.
func TestHoursFollowsTheHolder(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	host := func(parent string) *sampler.Host {
		return &sampler.Host{Procs: map[int]*sampler.Proc{
			2000: {PID: 2000, PPID: 1, Name: parent, User: "alice"},
			2001: {PID: 2001, PPID: 2000, Name: "python", User: "alice"},
			3000: {PID: 3000, PPID: 1, Name: "python", User: "bob"},
		}}
	}
	procs := func(pid int) []sampler.GPUProc { return []sampler.GPUProc{{PID: pid, MemUsed: sampler.Some(1)}} }
	var h Hours
	for k, g := range []struct {
		job    string
		pid    int
		parent string
	}{{"42", 0, ""}, {"42", 0, ""}, {"43", 0, ""}, {"", 2001, "torchrun"}, {"", 2001, "deepspeed"}, {"", 3000, "deepspeed"}} {
		s := sampler.Snapshot{Time: t0.Add(time.Duration(k) * time.Second), Host: host(g.parent),
			GPUs: []sampler.GPU{{Index: 0, UUID: "GPU-a", Job: g.job, Owner: "frank", Util: sampler.Some(100)}}}
		if g.pid > 0 {
			s.GPUs[0].Procs = procs(g.pid)
		}
		h.Add(&s)
	}
	want := map[HolderKey]float64{
		{HolderSlurm, "42", "frank"}:                     1,
		{HolderSlurm, "43", "frank"}:                     1,
		{HeldByProcess, "torchrun, PPID 2000", "alice"}:  1,
		{HeldByProcess, "deepspeed, PPID 2000", "alice"}: 1,
		{HeldByProcess, "PID 3000", "bob"}:               1,
	}
	for k, held := range want {
		if got := h.By[k]; got == nil || got.Held != held {
			t.Errorf("%v: %+v, want %v s held", k, got, held)
		}
	}
	if len(h.By) != len(want) {
		t.Errorf("holders %v, want %d", h.By, len(want))
	}
}
