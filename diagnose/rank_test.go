package diagnose

import (
	"strings"
	"testing"
)

func TestRankOrder(t *testing.T) {
	fs := []Finding{
		{Rule: RuleMemoryPressure, Severity: Info, GPU: 0},
		{Rule: RuleLaunchBound, Severity: Warning, GPU: 3},
		{Rule: RuleInputStarved, Severity: Warning, GPU: 3},
		{Rule: RuleStraggler, Severity: Warning, GPU: -1},
		{Rule: RuleXidError, Severity: Critical, GPU: 7},
		{Rule: RuleCopyBound, Severity: Warning, GPU: 1},
	}
	Rank(fs)
	want := []string{"xid_error/7", "straggler/-1", "copy_bound/1", "input_starved/3", "launch_bound/3", "memory_pressure/0"}
	for i, f := range fs {
		if got := f.Rule + "/" + itoa(f.GPU); got != want[i] {
			t.Fatalf("rank %d = %s, want %s (all: %v)", i, got, want[i], fs)
		}
	}
}

// TestRankByGPUGroups: each GPU's findings together, groups by their worst
// finding then index, the node's own last, Rank's order inside a group.
func TestRankByGPUGroups(t *testing.T) {
	fs := []Finding{
		{Rule: RuleMemoryPressure, Severity: Info, GPU: 5},
		{Rule: RuleInputStarved, Severity: Warning, GPU: 2},
		{Rule: RuleStraggler, Severity: Warning, GPU: -1},
		{Rule: RuleLaunchBound, Severity: Info, GPU: 4},
		{Rule: RuleThermalThrottle, Severity: Warning, GPU: 4},
		{Rule: RuleXidError, Severity: Critical, GPU: 7},
		{Rule: RuleCopyBound, Severity: Warning, GPU: 2},
	}
	RankByGPU(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Rule+"/"+itoa(f.GPU))
	}
	want := "xid_error/7 input_starved/2 copy_bound/2 thermal_throttle/4 launch_bound/4 straggler/-1 memory_pressure/5"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("order %s, want %s", s, want)
	}
}
