package summary

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// TestGPUHoursHeldAndUsed: 101 samples 1 s apart (100 s of intervals).
// Slurm job 7 of frank holds GPU 0 idle and GPU 1 at 50% GPU-Util;
// alice's process runs GPU 2 at 100% with no scheduler; GPU 3 is free;
// GPU 4 is a MIG GPU of job 8 whose busy share is SM activity, 30%.
func TestGPUHoursHeldAndUsed(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var snaps sampler.Snapshots
	for i := range 101 {
		s := sampler.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i + 1),
			Host: &sampler.Host{Procs: map[int]*sampler.Proc{900: {PID: 900, PPID: 1, User: "alice", Name: "python"}}}}
		s.GPUs = []sampler.GPU{
			{Index: 0, Job: "7", Owner: "frank", Util: sampler.Some(0)},
			{Index: 1, Job: "7", Owner: "frank", Util: sampler.Some(50)},
			{Index: 2, Util: sampler.Some(100), Procs: []sampler.GPUProc{{PID: 900, MemUsed: sampler.Some(1e9)}}},
			{Index: 3, Util: sampler.Some(0)},
			{Index: 4, Job: "8", Owner: "frank", MIG: true, SMActive: sampler.Some(30)},
		}
		snaps = append(snaps, s)
	}
	r, err := Build(&snaps, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := r.GPUHours
	if h == nil {
		t.Fatal("no GPU-hours in the report")
	}
	near := func(what string, got, wantSeconds float64) {
		t.Helper()
		if math.Abs(got-wantSeconds/3600) > 1e-9 {
			t.Errorf("%s = %.6f GPU-hours, want %.6f", what, got, wantSeconds/3600)
		}
	}
	byJob := map[string]JobHours{}
	for _, j := range h.Jobs {
		byJob[j.Kind+" "+j.Job] = j
	}
	j7, j8, alice := byJob["slurm 7"], byJob["slurm 8"], byJob["process PID 900"]
	near("job 7 held", j7.Held, 200)
	near("job 7 used", j7.Used, 50)
	near("job 8 held", j8.Held, 100)
	near("job 8 used (SM activity on MIG)", j8.Used, 30)
	near("alice's process held", alice.Held, 100)
	near("alice's process used", alice.Used, 100)
	if len(h.Jobs) != 3 || alice.User != "alice" || len(j7.GPUs) != 2 {
		t.Errorf("jobs %+v", h.Jobs)
	}
	near("total held", h.Held, 400)
	near("total used", h.Used, 180)
	if len(h.Users) != 2 || h.Users[0].User != "frank" {
		t.Fatalf("users %+v", h.Users)
	}
	near("frank held", h.Users[0].Held, 300)
	near("frank used", h.Users[0].Used, 80)
}

// The totals are the same whatever order the map gives its jobs: summed
// in the map's order, a report's used GPU-hours changed in its last digit
// from one run of the same recording to the next.
func TestGPUHoursTotalsInOneOrder(t *testing.T) {
	h := &diagnose.Hours{By: map[diagnose.HolderKey]*diagnose.HeldTime{}}
	for i := range 40 {
		v := 3600 * (0.1 + float64(i)*1.37e-3 + 1/float64(i+3))
		h.By[diagnose.HolderKey{Kind: "slurm", Job: fmt.Sprint(1000 + i), User: fmt.Sprint("u", i%3)}] =
			&diagnose.HeldTime{Held: v, Used: v / 3, Unmeasured: v / 7}
	}
	want := gpuHours(h)
	for range 50 {
		got := gpuHours(h)
		if got.Used != want.Used || got.Held != want.Held || got.Unmeasured != want.Unmeasured ||
			!reflect.DeepEqual(got.Users, want.Users) {
			t.Fatalf("totals %v, %v, %v, users %v; another run gave %v, %v, %v, %v",
				got.Held, got.Used, got.Unmeasured, got.Users, want.Held, want.Used, want.Unmeasured, want.Users)
		}
	}
}
