package diagnose

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// sometimes applies sc to a tick with probability p, so the share of
// samples a rule counts moves across its threshold from window to window.
func sometimes(p float64, sc scene) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		if r.Float64() < p {
			sc(t, r, s)
		}
	}
}

// The column's quick checks (colhealth.go) repeat their rules' counts and
// thresholds; a check that says "nothing" where its rule would find
// something hides a finding without any error. Each window is judged with
// the checks and with every rule walking the snapshots: the findings must
// be the same, and each health rule must have fired somewhere.
func TestColumnChecksHideNoFinding(t *testing.T) {
	loaded := healthyRank(0)
	swCool := func(_ int, _ *rand.Rand, s *sampler.Snapshot) { // sw_thermal far from the slowdown temperature
		s.GPUs[0].ClockEvents = sampler.ClockEvents{Mask: sampler.ClockSwThermal, OK: true}
	}
	var scenes [][]scene
	for _, p := range []float64{0.05, 0.12, 0.2, 0.3, 0.35, 0.5, 0.9} {
		scenes = append(scenes,
			[]scene{loaded, sometimes(p, powerCap(1450))},
			[]scene{loaded, sometimes(p, thermal(sampler.ClockSwThermal, 89))},
			[]scene{loaded, sometimes(p, thermal(0, 87))},
			[]scene{loaded, sometimes(p, swCool)},
			[]scene{loaded, sometimes(p, thermal(sampler.ClockHwThermal, 80))},
			[]scene{loaded, sometimes(p, pcieGen(3))},
			[]scene{loaded, sometimes(p, replays(2))},
			[]scene{sometimes(p, copyBound(30e9))},
			[]scene{loaded, sometimes(p, xid(79))},
		)
	}
	fired := map[string]int{}
	for i, sc := range scenes {
		w := makeWindow(200, sc...)
		for from, to := 0, 10; to <= len(w); from, to = from+7, to+13 {
			from = max(from, to-120)
			win := w[from:to]
			quick := newCtx(win).evaluate(nil)
			all := newCtx(win)
			all.walkAll = true
			walked := all.evaluate(nil)
			if !reflect.DeepEqual(quick, walked) {
				t.Fatalf("scene %d, window [%d,%d): with the column's checks\n%+v\nevery rule walking\n%+v", i, from, to, quick, walked)
			}
			for _, f := range walked {
				fired[f.Rule]++
			}
		}
	}
	for _, rule := range []string{RulePowerCapped, RuleThermalThrottle, RulePCIeLinkDegraded, RulePCIeErrors, RuleCopyBound, RuleXidError} {
		if fired[rule] == 0 {
			t.Errorf("%s never fired: the scenes do not judge its quick check", rule)
		}
	}
}
