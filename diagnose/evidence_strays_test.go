package diagnose

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// Ranks that each hold a context on the last rank's GPU are named there,
// with the set-the-device fix; a model one process splits over two GPUs,
// and a data-parallel process beside another job, are not ranks' contexts.
func TestEvidenceStrayRanks(t *testing.T) {
	var gpus []sampler.GPU
	for i := 0; i < 4; i++ {
		g := sampler.GPU{Index: i, MemTotal: sampler.Some(80 << 30)}
		g.Procs = []sampler.GPUProc{compute(100+i, "python3", 27.5)}
		gpus = append(gpus, g)
	}
	for pid := 100; pid < 103; pid++ {
		gpus[3].Procs = append(gpus[3].Procs, compute(pid, "python3", 1.37))
	}
	fs := Evidence([]sampler.Snapshot{evSnap(0, gpus...)})
	f := requireRule(t, fs, RuleGPUContention, 3)
	if f.FixID != "stray_ranks" || !strings.Contains(f.Evidence, "pid 100 1.4 GiB here, 27.5 GiB on GPU 0") {
		t.Errorf("want the stray contexts named with their home GPUs; got fix %q, evidence %q", f.FixID, f.Evidence)
	}
	for i := 0; i < 3; i++ {
		forbidRule(t, fs, RuleGPUContention, i)
	}

	// One process over two GPUs, unevenly (device_map="auto"): one program's model.
	split := []sampler.GPU{
		{Index: 0, Procs: []sampler.GPUProc{compute(7, "python", 20)}},
		{Index: 1, Procs: []sampler.GPUProc{compute(7, "python", 3)}},
	}
	forbidRule(t, Evidence([]sampler.Snapshot{evSnap(0, split...)}), RuleGPUContention, 1)

	// DataParallel (one PID on every GPU, about as much on each) beside another job on GPU 1:
	// contention of two jobs, not a rank's context.
	dp := []sampler.GPU{
		{Index: 0, Procs: []sampler.GPUProc{compute(8, "python", 11)}},
		{Index: 1, Procs: []sampler.GPUProc{compute(8, "python", 10), compute(9, "./gpu_burn", 20)}},
	}
	if f := requireRule(t, Evidence([]sampler.Snapshot{evSnap(0, dp...)}), RuleGPUContention, 1); f.FixID == "stray_ranks" {
		t.Errorf("a data-parallel process beside another job read as a stray rank: %q", f.Evidence)
	}
}
