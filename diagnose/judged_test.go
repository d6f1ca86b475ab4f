package diagnose

import (
	"testing"
	"time"
)

// TestNotJudgedShortSpan: 29 s of data (a 30-sample check) judges the health
// rules but not the workload rules nor memory_idle_held; MaxMinData judges all.
func TestNotJudgedShortSpan(t *testing.T) {
	got := map[string]bool{}
	for _, r := range NotJudged(29 * time.Second) {
		got[r.ID] = true
	}
	for _, id := range []string{RuleIOBound, RuleInputStarved, RuleMemoryIdleHeld, RuleStraggler} {
		if !got[id] {
			t.Errorf("%s judged on 29 s of data", id)
		}
	}
	for _, id := range []string{RuleXidError, RuleECCErrors, RuleThermalThrottle} {
		if got[id] {
			t.Errorf("%s not judged though it fires at once", id)
		}
	}
	if n := NotJudged(MaxMinData()); len(n) != 0 {
		t.Errorf("not judged over MaxMinData: %v", n)
	}
	if MaxMinData() < idleHeldSpan {
		t.Errorf("MaxMinData %s below memory_idle_held's %s", MaxMinData(), idleHeldSpan)
	}
}
