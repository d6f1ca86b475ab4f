package diagnose

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// allocated gives GPU gi to Slurm job id of user from tick `from` on.
func allocated(gi, from int, id, user string) scene {
	return func(t int, _ *rand.Rand, s *sampler.Snapshot) {
		if t >= from {
			s.GPUs[gi].Job, s.GPUs[gi].Owner = id, user
		}
	}
}

func TestAllocatedIdle(t *testing.T) {
	fs := Evaluate(makeWindow(120, allocated(3, 0, "4242017", "frank")))
	f := requireRule(t, fs, RuleAllocatedIdle, 3)
	if !strings.Contains(f.Title, "Slurm job 4242017 of frank") || !strings.Contains(f.Evidence, "no process on it for 119 s") {
		t.Errorf("finding does not name the job and the time held: %q / %q", f.Title, f.Evidence)
	}
	if f.FixID != "allocated_idle" || !strings.Contains(f.Hint, "scancel") {
		t.Errorf("first fix %q %q", f.FixID, f.Hint)
	}
	for gi := range 8 {
		if gi != 3 {
			forbidRule(t, fs, RuleAllocatedIdle, gi) // idle but allocated to no one: free, not held
		}
	}
}

func TestAllocatedIdleNotWhenUsedOrShort(t *testing.T) {
	withProc := func(t int, r *rand.Rand, s *sampler.Snapshot) {
		attach(s, 3, proc{pid: 5000, user: "frank", cmd: "python train.py", mem: 40e9, start: t0.Add(-time.Hour)})
	}
	forbidRule(t, Evaluate(makeWindow(120, allocated(3, 0, "4242017", "frank"), withProc)), RuleAllocatedIdle, 3)
	// Allocated 60 s ago: a batch script may still be staging its data.
	forbidRule(t, Evaluate(makeWindow(120, allocated(3, 60, "4242017", "frank"))), RuleAllocatedIdle, 3)
	// A pod holds it: named as the pod.
	pod := func(t int, _ *rand.Rand, s *sampler.Snapshot) {
		s.GPUs[5].Pod = sampler.Pod{Namespace: "research", Name: "trainer-0"}
	}
	f := requireRule(t, Evaluate(makeWindow(120, pod)), RuleAllocatedIdle, 5)
	if !strings.Contains(f.Title, "pod research/trainer-0") {
		t.Errorf("pod finding: %q", f.Title)
	}
}
