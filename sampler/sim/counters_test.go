package sim

import (
	"math"
	"testing"
	"time"
)

// The energy counter is the integral of the power drawn: over each second
// it grows by the second's mean power, which is what NVML's power reading
// averages (to the mW and mJ the two are reported in). The memory sensor
// follows the die, and rows are remapped only on the ECC scenario's GPU.
func TestCountersFollowThePhysics(t *testing.T) {
	for _, id := range []string{"healthy", "power_capped", "thermal_throttle", "ecc_errors"} {
		_, frames := run(t, id, 1, time.Minute, time.Second)
		if len(frames) < 59 || len(frames[0].gpus) != numGPUs {
			t.Fatalf("%s: %d frames", id, len(frames))
		}
		for i := 1; i < len(frames); i++ {
			for gi, g := range frames[i].gpus {
				prev := frames[i-1].gpus[gi]
				if d := g.Energy.V - prev.Energy.V; math.Abs(d-g.Power.V) > 0.01 {
					t.Fatalf("%s GPU %d at %d s: energy grew %.3f J at %.3f W over 1 s", id, gi, i, d, g.Power.V)
				}
				if d := g.MemTemp.V - g.Temp.V; d < memTempOffset-2 || d > memTempOffset+memTempPerDRAM+2 {
					t.Fatalf("%s GPU %d at %d s: memory %.0f °C beside the die's %.0f °C", id, gi, i, g.MemTemp.V, g.Temp.V)
				}
				rows := g.RemappedCorrectable.V + g.RemappedUncorrectable.V
				if rows != g.RemappedRows.V || (rows > 0) != (id == "ecc_errors" && gi == 0) {
					t.Fatalf("%s GPU %d: %v+%v remapped rows of %v", id, gi, g.RemappedCorrectable.V, g.RemappedUncorrectable.V, g.RemappedRows.V)
				}
				if !g.Energy.OK || !g.MemTemp.OK || !g.GRActive.OK || g.GRActive.V < g.SMActive.V-0.5 {
					t.Fatalf("%s GPU %d: energy %+v, memory temperature %+v, GR active %+v (SM active %v)", id, gi, g.Energy, g.MemTemp, g.GRActive, g.SMActive.V)
				}
			}
		}
	}
}
