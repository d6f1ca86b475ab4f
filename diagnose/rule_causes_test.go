package diagnose

import (
	"math/rand/v2"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// narrowLink: GPU 0 trained to x8 of x16, whatever its load.
func narrowLink(_ int, _ *rand.Rand, s *sampler.Snapshot) { s.GPUs[0].PCIeWidth = sampler.Some(8) }

func TestLiveLanesDegradedAtIdle(t *testing.T) {
	fs := Evaluate(makeWindow(60, narrowLink))
	requireRule(t, fs, RulePCIeLinkDegraded, 0)
	forbidRule(t, fs, RulePCIeLinkDegraded, 1) // Gen1 of Gen5 at idle, x16: power saving
}

// hungRanks: a torchrun job on every GPU, each rank spinning in NCCL:
// GPU-Util 100 %, SMs nearly idle, power low.
func hungRanks(t int, r *rand.Rand, s *sampler.Snapshot) {
	for gi := range s.GPUs {
		healthyRank(gi)(t, r, s)
		g := &s.GPUs[gi]
		g.Util, g.SMActive, g.TensorActive, g.DRAMActive = sampler.Some(100), sampler.Some(between(r, 3, 8)), sampler.Some(0), sampler.Some(1)
		g.Power = sampler.Some(between(r, 100, 130))
	}
}

func TestLiveCollectiveHang(t *testing.T) {
	fs := Evaluate(makeWindow(120, hungRanks, nvlinkTopology))
	f := requireRule(t, fs, RuleCommBound, -1)
	if f.FixID != hintHang.id || f.Hint != hintHang.en {
		t.Errorf("hint %q, want the hang's", f.Hint)
	}
	for gi := range 8 {
		forbidRule(t, fs, RuleLaunchBound, gi)
	}
	// A healthy job at 100 % with busy SMs is no hang.
	forbidRule(t, Evaluate(makeWindow(120, append(healthyNode(), nvlinkTopology)...)), RuleCommBound, -1)
}
