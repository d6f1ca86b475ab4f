package sim

import (
	"slices"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// checkAllocatedIdle: GPUs 0 and 1 have no process and idle physics (no
// memory used, idle power); GPUs 2-7 train.
func checkAllocatedIdle(t *testing.T, frames []frame, _ *sampler.Topology) {
	for g := range 2 {
		for _, fr := range frames {
			if len(fr.gpus[g].Procs) > 0 {
				t.Fatalf("GPU %d has a process", g)
			}
		}
		expect(t, "allocated GPU util max", slices.Max(series(frames, g, util)), 0, 0)
		expect(t, "allocated GPU power mean", mean(series(frames, g, power)), 70, 95)
		expect(t, "allocated GPU memory used (GiB)", frames[len(frames)-1].gpus[g].MemUsed.V/(1<<30), 0, 1)
	}
	for g := 2; g < numGPUs; g++ {
		checkTraining(t, frames, g)
	}
}

// TestAllocatedIdleJobs: the scenario's Slurm jobs, as scontrol would
// give them: frank holds GPUs 0-1, alice 2-7; other scenarios run no
// scheduler.
func TestAllocatedIdleJobs(t *testing.T) {
	n, err := New("allocated_idle", 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	a := n.Allocations(t0, nil)
	if len(a) != numGPUs || a[0] != a[1] || a[0].User != "frank" || a[2].User != "alice" || a[2] != a[7] || a[0].Job == a[2].Job {
		t.Errorf("allocations %v", a)
	}
	h, _ := New("healthy", 1, t0.Add(time.Hour))
	if h.Allocations(t0, nil) != nil {
		t.Error("a scenario without Slurm has jobs")
	}
}
