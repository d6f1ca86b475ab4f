package diagnose

import (
	"math/rand/v2"
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

// The live rule names the same case the same way: every rank of a job on
// GPUs 1-7 also holds a context on GPU 0 beside rank 0, which is
// contention of the ranks' own making, fixed by setting the device.
func TestLiveStrayRanks(t *testing.T) {
	strayOnZero := func(_ int, _ *rand.Rand, s *sampler.Snapshot) {
		for gi := 1; gi < 8; gi++ {
			pid := 5000 + gi
			s.GPUs[0].Procs = append(s.GPUs[0].Procs, sampler.GPUProc{PID: pid, Type: "C", MemUsed: sampler.Some(0.5e9), Host: s.Host.Procs[pid]})
		}
	}
	w := makeWindow(120, append(healthyNode(), strayOnZero)...)
	f := requireRule(t, Evaluate(w), RuleGPUContention, 0)
	if f.FixID != "stray_ranks" || !strings.Contains(f.Title, "7 ranks") {
		t.Errorf("want the seven ranks' contexts named with the set-the-device fix; got %q, fix %q", f.Title, f.FixID)
	}
	forbidRule(t, Evaluate(makeWindow(120, healthyNode()...)), RuleGPUContention, 0)
}
