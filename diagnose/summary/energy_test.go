package summary

import (
	"math"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// The counter's rises add up, a reload (the counter back near 0) counts
// from 0, and a pause in the log loses nothing, where power × time would:
// 1 h at 500 W with a 10-minute gap is 0.5 kWh by the counter.
func TestEnergyFromTheCounter(t *testing.T) {
	var e energyAcc
	at := func(j float64, dt time.Duration) {
		e.add(&sampler.GPU{Energy: sampler.Some(j), Power: sampler.Some(500)}, dt)
	}
	at(1e6, 0)
	at(1e6+500*1800, time.Second) // 30 min later, after a pause
	at(500*600, 0)                // driver reloaded 10 min ago
	at(500*1800, 20*time.Minute)
	kwh, from := e.kWh()
	if from != EnergyFromCounter || math.Abs(kwh.V-0.5) > 1e-9 {
		t.Errorf("%v kWh from %s, want 0.5 from the counter", kwh.V, from)
	}
}

// Without a counter (older recordings, nvidia-smi logs) energy is power
// times the interval each reading describes; with neither it is n/a.
func TestEnergyFromPowerWithoutTheCounter(t *testing.T) {
	var e energyAcc
	for range 3600 {
		e.add(&sampler.GPU{Power: sampler.Some(400)}, time.Second)
	}
	if kwh, from := e.kWh(); from != EnergyFromPower || math.Abs(kwh.V-0.4) > 1e-9 {
		t.Errorf("%v kWh from %s, want 0.4 from power × time", kwh.V, from)
	}
	var none energyAcc
	none.add(&sampler.GPU{}, time.Second)
	if kwh, from := none.kWh(); kwh.OK || from != "" {
		t.Errorf("no readings gave %v from %q", kwh, from)
	}
}

// The report's total adds the GPUs that have a figure, and its cost is the
// total at the price given; without a price there is no cost, without any
// figure no total.
func TestEnergyTotalAndCost(t *testing.T) {
	gpus := []GPU{{EnergyKWh: sampler.Some(0.5)}, {EnergyKWh: sampler.Some(0.25)}, {}}
	e := energyTotal(gpus, 0.12)
	if e == nil || e.KWh != 0.75 || e.GPUs != 2 || !e.Cost.OK || math.Abs(e.Cost.V-0.09) > 1e-12 || e.PricePerKWh != 0.12 {
		t.Errorf("total %+v, want 0.75 kWh on 2 GPUs costing 0.09 at 0.12", e)
	}
	if e := energyTotal(gpus, 0); e == nil || e.Cost.OK || e.PricePerKWh != 0 {
		t.Errorf("without a price: %+v, want no cost", e)
	}
	if e := energyTotal([]GPU{{}}, 0.12); e != nil {
		t.Errorf("no figures: %+v, want nil", e)
	}
}
