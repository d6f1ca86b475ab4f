package accuracy

import (
	"slices"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

// Truth is what a scenario must raise: every rule in Expect, and no rule
// outside Expect and Allow. Allow holds findings that are also true of the
// workload as built (three jobs crowded onto GPU 0 also contend for it).
// The truth comes from how the scenario was built, not from the rules.
type Truth struct {
	Expect, Allow []string
}

// mixedTruth: buildMixed puts GPU 1 on a starved trainer, GPU 2 on an idle
// notebook, GPU 3 on an underfilled server, GPU 4 on a failing heatsink,
// GPU 5 on tiny kernels and GPU 7 on bandwidth-bound kernels.
var mixedTruth = Truth{Expect: []string{diagnose.RuleInputStarved, diagnose.RuleMemoryIdleHeld, diagnose.RuleServingUnderfilled,
	diagnose.RuleThermalThrottle, diagnose.RuleLaunchBound, diagnose.RuleMemoryBandwidth}}

// allowed are true secondary findings of a rule's scenario.
var allowed = map[string][]string{
	// three jobs time-slice GPU 0: they contend as well as crowd.
	diagnose.RuleLoadImbalance: {diagnose.RuleGPUContention},
	// one of buildXid's stories is Xid 48 (double-bit ECC) and 63 (row remap).
	diagnose.RuleXidError: {diagnose.RuleECCErrors},
}

// TruthOf is the scenario's truth; false for an unknown id.
func TruthOf(scenario string) (Truth, bool) {
	switch scenario {
	case "healthy", "mig":
		return Truth{}, true
	case "mixed":
		return mixedTruth, true
	}
	if _, ok := diagnose.Lookup(scenario); ok {
		return Truth{Expect: []string{scenario}, Allow: allowed[scenario]}, true
	}
	for _, la := range sim.Lookalikes() {
		if la.ID == scenario {
			return Truth{Expect: la.Expect}, true
		}
	}
	return Truth{}, false
}

// Corpus is every scenario with a truth: the simulator's own, then the
// look-alikes.
func Corpus() []string {
	var ids []string
	for _, sc := range sim.Scenarios() {
		ids = append(ids, sc.ID)
	}
	for _, la := range sim.Lookalikes() {
		ids = append(ids, la.ID)
	}
	return ids
}

// Score counts, over scenario × seed runs, a rule reported where the truth
// expects it (TP), reported where the truth neither expects nor allows it
// (FP), and expected but not reported (FN).
type Score struct{ TP, FP, FN int }

// Precision is TP / (TP + FP); false when the rule was never reported.
func (s Score) Precision() (float64, bool) {
	if s.TP+s.FP == 0 {
		return 0, false
	}
	return float64(s.TP) / float64(s.TP+s.FP), true
}

// Recall is TP / (TP + FN); false when no run expected the rule.
func (s Score) Recall() (float64, bool) {
	if s.TP+s.FN == 0 {
		return 0, false
	}
	return float64(s.TP) / float64(s.TP+s.FN), true
}

// Scores are each rule's counts over the scenarios of r that have a truth.
func (r Result) Scores() map[string]Score {
	out := map[string]Score{}
	for _, ri := range diagnose.Rules {
		out[ri.ID] = Score{}
	}
	for _, sc := range r.Scenarios {
		t, ok := TruthOf(sc)
		if !ok {
			continue
		}
		for rule := range out {
			s, hits := out[rule], r.Hits[sc][rule]
			switch {
			case slices.Contains(t.Expect, rule):
				s.TP += hits
				s.FN += r.Seeds - hits
			case !slices.Contains(t.Allow, rule):
				s.FP += hits
			}
			out[rule] = s
		}
	}
	return out
}
