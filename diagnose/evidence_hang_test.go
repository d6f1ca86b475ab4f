package diagnose

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// rank is a GPU of one 4-GPU job holding 73.6 GiB of 80 GiB, as the
// ranks of a sharded model do.
func rank(idx int, util, power float64) sampler.GPU {
	g := busyGPU(idx, util, power, 700)
	g.Name, g.MemUsed = "NVIDIA H100 80GB HBM3", sampler.Some(73.6*(1<<30))
	return g
}

// One rank spinning at 100 % on idle power while the job's other ranks sit
// at 0 % holding the same memory is a rank waiting in a collective for
// peers that never joined it: comm_bound with the hang checks, not the
// spinning GPU's small kernels.
func TestEvidenceRankWaitsForIdlePeers(t *testing.T) {
	fs := Evidence([]sampler.Snapshot{evSnap(0, rank(0, 100, 152), rank(1, 0, 129), rank(2, 0, 137), rank(3, 0, 135))})
	f := requireRule(t, fs, RuleCommBound, -1)
	if f.FixID != hintHang.id || !strings.Contains(f.Evidence, "GPU 0 at") || !strings.Contains(f.Evidence, "GPUs 1, 2, 3 at 0%") {
		t.Errorf("finding %q / %q", f.Title, f.Evidence)
	}
	forbidRule(t, fs, RuleLaunchBound, 0)

	// With a process list, one program on every GPU ties them together.
	gs := []sampler.GPU{rank(0, 100, 152), rank(1, 0, 129)}
	gs[0].Procs, gs[1].Procs = []sampler.GPUProc{compute(10, "python3", 70)}, []sampler.GPUProc{compute(11, "python3", 70)}
	f = requireRule(t, Evidence([]sampler.Snapshot{evSnap(0, gs...)}), RuleCommBound, -1)
	if !strings.Contains(f.Evidence, "(python3)") {
		t.Errorf("evidence %q does not name the job", f.Evidence)
	}
}

// What one snapshot cannot tie to one job stays as it was: a busy GPU
// beside empty ones (a shared server), peers holding different amounts,
// different programs, a spinning GPU drawing well above its idle peers, a
// peer half busy.
func TestEvidenceLoneSpinOnASharedServerIsNoHang(t *testing.T) {
	empty := []sampler.GPU{rank(0, 100, 152), rank(1, 0, 60), rank(2, 0, 61)}
	empty[1].MemUsed, empty[2].MemUsed = sampler.Some(4<<20), sampler.Some(4<<20)
	uneven := []sampler.GPU{rank(0, 100, 152), rank(1, 0, 129), rank(2, 0, 130)}
	uneven[2].MemUsed = sampler.Some(40 << 30)
	programs := []sampler.GPU{rank(0, 100, 152), rank(1, 0, 129)}
	programs[0].Procs, programs[1].Procs = []sampler.GPUProc{compute(10, "vllm", 70)}, []sampler.GPUProc{compute(11, "python3", 70)}
	working := []sampler.GPU{rank(0, 100, 230), rank(1, 0, 129), rank(2, 0, 130)}
	half := []sampler.GPU{rank(0, 100, 152), rank(1, 0, 129), rank(2, 45, 300)}
	models := []sampler.GPU{rank(0, 100, 152), rank(1, 0, 129)}
	models[1].Name = "NVIDIA A100-SXM4-80GB"
	for name, gs := range map[string][]sampler.GPU{"empty peers": empty, "uneven memory": uneven, "two programs": programs,
		"working": working, "a busy peer": half, "two models": models} {
		fs := Evidence([]sampler.Snapshot{evSnap(0, gs...)})
		if hasRule(fs, RuleCommBound, -1) {
			t.Errorf("%s: comm_bound %v", name, evRules(fs))
		}
	}
}

func hasRule(fs []Finding, rule string, gpu int) bool {
	for _, f := range fs {
		if f.Rule == rule && f.GPU == gpu {
			return true
		}
	}
	return false
}

// A job on part of a node, as a cut table shows it with no process list:
// two V100s at 100 % on 18 % of the limit holding the same 966 MiB, one
// GPU empty and idle, one row cut from the input. The GPUs in use are
// exactly the spinning ones and hold what ranks of one program hold, so
// they are named a collective that waits (an NCCL test hang looks so).
// Spinning GPUs holding different memory, or beside a GPU someone holds
// memory on, stay unjudged as on a shared server.
func TestEvidenceSpinningRanksBesideEmptyGPUs(t *testing.T) {
	v100 := func(idx int, util, power, mib float64) sampler.GPU {
		g := busyGPU(idx, util, power, 250)
		g.Name, g.MemUsed = "Tesla V100-PCIE-32GB", sampler.Some(mib*(1<<20))
		return g
	}
	cut := sampler.GPU{Index: 3, Name: "Tesla V100-PCIE-32GB"}
	gs := []sampler.GPU{v100(0, 100, 44, 966), v100(1, 100, 44, 966), v100(2, 0, 26, 10), cut}
	fs := Evidence([]sampler.Snapshot{evSnap(0, gs...)})
	f := requireRule(t, fs, RuleCommBound, -1)
	if f.FixID != hintHang.id || !strings.Contains(f.Evidence, "GPUs 0, 1 at") || !strings.Contains(f.Evidence, "the only GPUs in use") {
		t.Errorf("finding %q / %q", f.Title, f.Evidence)
	}
	forbidRule(t, fs, RuleLaunchBound, 0)
	forbidRule(t, fs, RuleLaunchBound, 1)

	uneven := []sampler.GPU{v100(0, 100, 44, 966), v100(1, 100, 44, 4000), v100(2, 0, 26, 10)}
	held := []sampler.GPU{v100(0, 100, 44, 966), v100(1, 100, 44, 966), v100(2, 0, 26, 22000)}
	one := []sampler.GPU{v100(0, 100, 44, 966), v100(1, 0, 26, 10), v100(2, 0, 26, 10)}
	for name, gs := range map[string][]sampler.GPU{"uneven memory": uneven, "memory held beside": held, "one spinning": one} {
		if fs := Evidence([]sampler.Snapshot{evSnap(0, gs...)}); hasRule(fs, RuleCommBound, -1) {
			t.Errorf("%s: comm_bound %v", name, evRules(fs))
		}
	}
}

// A table cut inside a GPU's row names that GPU with no reading: it is
// left out of the judgement and said so, not taken for a working GPU, so
// a rank spinning beside a peer that holds the same memory at 0 % is
// still named a collective that waits (GLM-130B's cut table:
// b24-smi-table-v100-sxm2-*-glm-130b-issue-32). A cut GPU beside a
// spinning GPU with no idle peer stays unjudged.
func TestEvidenceWaitingRankBesideACutRow(t *testing.T) {
	v100 := func(idx int, util, power float64) sampler.GPU {
		g := busyGPU(idx, util, power, 300)
		g.Name, g.MemUsed, g.MemTotal = "Tesla V100-SXM2...", sampler.Some(20392*(1<<20)), sampler.Some(32510*(1<<20))
		return g
	}
	cut := sampler.GPU{Index: 2, Name: "Tesla V100-SXM2..."}
	fs := Evidence([]sampler.Snapshot{evSnap(0, v100(0, 0, 53), v100(1, 100, 66), cut)})
	f := requireRule(t, fs, RuleCommBound, -1)
	if !strings.Contains(f.Title, "1 of 2 GPUs") || !strings.Contains(f.Evidence, "GPU 2 named without a reading") {
		t.Errorf("finding %q / %q", f.Title, f.Evidence)
	}
	forbidRule(t, fs, RuleLaunchBound, 1)

	if fs := Evidence([]sampler.Snapshot{evSnap(0, v100(0, 100, 66), cut)}); hasRule(fs, RuleCommBound, -1) {
		t.Errorf("one spinning GPU beside a cut row: comm_bound %v", evRules(fs))
	}
}
