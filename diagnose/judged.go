package diagnose

import "time"

// MinData is the least span of samples a rule needs, from a cold start, before
// it can open a finding: hardware-health and evidence-only rules need none; memory_idle_held
// waits idleHeldSpan; every other rule judges minWorkloadSpan of a settled
// workload. The engine's open delay (openFor) comes on top, and a rule is
// only listed as judged when the data covered all of it.
func MinData(id string) time.Duration {
	r, _ := Lookup(id)
	switch {
	case r.Immediate:
		return 0
	case r.Scope == ScopeEvidence: // proven by an imported text, never by a span of samples
		return 0
	case id == RuleMemoryIdleHeld:
		return idleHeldSpan + openFor
	}
	return minWorkloadSpan + openFor
}

// MaxMinData is the longest MinData of any rule: a check over at least this
// much data has judged every rule.
func MaxMinData() time.Duration {
	var m time.Duration
	for _, r := range Rules {
		m = max(m, MinData(r.ID))
	}
	return m
}

// JudgeAllSpan is the span a check must cover to judge every rule: the
// longest MinData with two 1 s samples to spare. check's default --for
// and its "run with --for" advice both come from it.
func JudgeAllSpan() time.Duration {
	return (MaxMinData() + 2*time.Second).Round(time.Second)
}

// NotJudged lists, in canonical order, the rules that span of data was too
// short for: "no findings" from them means nothing, so a verdict must say so.
func NotJudged(span time.Duration) []RuleInfo {
	var out []RuleInfo
	for _, r := range Rules {
		if span < MinData(r.ID) {
			out = append(out, r)
		}
	}
	return out
}
