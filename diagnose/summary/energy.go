package summary

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Where a GPU's energy figure comes from (GPU.EnergyFrom).
const (
	// EnergyFromCounter: the board's energy counter (NVML's total energy
	// consumption, Volta and newer), exact whatever the sampling interval.
	EnergyFromCounter = "counter"
	// EnergyFromPower: the power readings times the time between them, for
	// inputs without the counter (older recordings, nvidia-smi logs); a
	// pause in the log longer than maxSampleGap counts nothing.
	EnergyFromPower = "power"
)

const joulesPerKWh = 3.6e6

// EnergyTotal is the energy of all GPUs over the range, and what it cost at
// the price the report was given.
type EnergyTotal struct {
	KWh  float64 `json:"kwh"`
	GPUs int     `json:"gpus"` // the GPUs with an energy figure
	// PricePerKWh is --price-per-kwh, in whatever currency it was given;
	// Cost is KWh × PricePerKWh. Both are absent without a price.
	PricePerKWh float64        `json:"price_per_kwh,omitempty"`
	Cost        sampler.Metric `json:"cost,omitzero"`
}

// energyTotal adds the GPUs' energy; nil when none has a figure.
func energyTotal(gpus []GPU, pricePerKWh float64) *EnergyTotal {
	var t EnergyTotal
	for i := range gpus {
		if gpus[i].EnergyKWh.OK {
			t.KWh += gpus[i].EnergyKWh.V
			t.GPUs++
		}
	}
	if t.GPUs == 0 {
		return nil
	}
	if pricePerKWh > 0 {
		t.PricePerKWh, t.Cost = pricePerKWh, sampler.Some(t.KWh*pricePerKWh)
	}
	return &t
}

// energyAcc adds up a GPU's energy over the report's range.
type energyAcc struct {
	last     sampler.Metric // the counter at the previous reading, J
	counted  float64        // J the counter rose by
	readings int            // counter readings seen
	powerJ   float64        // J of power × interval
	powered  bool           // a power reading was seen
}

// add takes one sample: the counter's rise since its previous reading (a
// counter lower than before means the driver was reloaded and counts from
// 0), and the sample's power over the interval it describes.
func (e *energyAcc) add(g *sampler.GPU, dt time.Duration) {
	if g.Energy.OK {
		if e.last.OK {
			rise := g.Energy.V - e.last.V
			if rise < 0 {
				rise = g.Energy.V
			}
			e.counted += rise
		}
		e.last = g.Energy
		e.readings++
	}
	if g.Power.OK {
		e.powered = true
		e.powerJ += g.Power.V * dt.Seconds()
	}
}

// kWh is the energy used and where the figure comes from: the counter when
// it was read twice or more, else the power readings; n/a without either.
func (e *energyAcc) kWh() (sampler.Metric, string) {
	switch {
	case e.readings >= 2:
		return sampler.Some(e.counted / joulesPerKWh), EnergyFromCounter
	case e.powered:
		return sampler.Some(e.powerJ / joulesPerKWh), EnergyFromPower
	}
	return sampler.NA, ""
}
