package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Every sample of every scenario and look-alike is a reading a real H200
// could give: the figures NVML averages over a second (utilisation, power)
// and the clock with its event reasons describe the same second. Before,
// the clock and reasons were the last 100 ms step's, so a bursty job showed
// 59 % util at 389 W with the SM clock at 345 MHz and "idle" active.
func TestEverySampleIsPhysical(t *testing.T) {
	var ids []string
	for _, s := range Scenarios() {
		ids = append(ids, s.ID)
	}
	for _, l := range Lookalikes() {
		ids = append(ids, l.ID)
	}
	for _, id := range ids {
		for seed := int64(1); seed <= 3; seed++ {
			_, frames := run(t, id, seed, 3*time.Minute, time.Second)
			for i, fr := range frames {
				for _, g := range fr.gpus {
					if err := physical(g); err != nil {
						t.Fatalf("%s seed %d at %d s, GPU %d: %v", id, seed, i+1, g.Index, err)
					}
				}
			}
		}
	}
}

// physical says what is impossible about one sample, or nil.
func physical(g sampler.GPU) error {
	if g.MIG || !g.Util.OK {
		return nil // a MIG parent reports no whole-GPU utilisation
	}
	idle := g.ClockEvents.OK && g.ClockEvents.Mask&sampler.ClockGpuIdle != 0
	clk, pw, u := g.SMClock.V, g.Power.V, g.Util.V
	switch {
	case idle && u > 0:
		return fmt.Errorf("idle clock reason at %.0f%% util", u)
	case idle && clk > smClockIdle:
		return fmt.Errorf("idle clock reason at %.0f MHz", clk)
	case u >= 50 && clk <= smClockIdle:
		return fmt.Errorf("%.0f%% util at the idle clock %.0f MHz", u, clk)
	// Core power scales with clock^2.5: at the idle clock it is a few watts,
	// so a GPU drawing 150 W above its idle power runs faster than that.
	case pw > 250 && clk <= smClockIdle:
		return fmt.Errorf("%.0f W at the idle clock %.0f MHz", pw, clk)
	case pw > g.PowerLimit.V:
		return fmt.Errorf("%.0f W above the %.0f W limit", pw, g.PowerLimit.V)
	case clk > g.SMClockMax.V || clk < smClockIdle:
		return fmt.Errorf("SM clock %.0f MHz outside %.0f–%.0f", clk, smClockIdle, g.SMClockMax.V)
	case g.MemUsed.V > g.MemTotal.V:
		return fmt.Errorf("memory used %.0f above total %.0f", g.MemUsed.V, g.MemTotal.V)
	}
	return nil
}
