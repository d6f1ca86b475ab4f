package diagnose

import (
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// A software power cap with the power reading beside it is evidence; the
// flag alone (a -q fragment of Clocks Event Reasons) is what any GPU at its
// power envelope shows, so it names nothing. The power brake stays a fault.
func TestEvidencePowerCapNeedsItsPowerReading(t *testing.T) {
	capped := func(idx int, mask uint64, withPower bool) sampler.GPU {
		g := busyGPU(idx, 95, 290, 300)
		if !withPower {
			g.Power, g.PowerLimit = sampler.Metric{}, sampler.Metric{}
		}
		g.ClockEvents = sampler.ClockEvents{OK: true, Mask: mask}
		return g
	}
	fs := Evidence([]sampler.Snapshot{evSnap(0,
		capped(0, sampler.ClockSwPowerCap, true),
		capped(1, sampler.ClockSwPowerCap, false),
		capped(2, sampler.ClockHwPowerBrake, false))})
	requireRule(t, fs, RulePowerCapped, 0)
	forbidRule(t, fs, RulePowerCapped, 1)
	requireRule(t, fs, RulePowerCapped, 2)
}
