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
	// Jobs and Users share the GPUs' energy out by who ran on them; Idle is
	// what the GPUs drew with no process (energy_jobs.go).
	Jobs    []JobEnergy  `json:"jobs,omitempty"`
	Users   []UserEnergy `json:"users,omitempty"`
	IdleKWh float64      `json:"idle_kwh"`
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
// 0), and the sample's power over the interval it describes. It returns
// the sample's joules, by the counter where the GPU has one, so that what
// is shared out among jobs adds up to the GPU's figure.
func (e *energyAcc) add(g *sampler.GPU, dt time.Duration) float64 {
	var joules float64
	if g.Power.OK {
		e.powered = true
		joules = g.Power.V * dt.Seconds()
		e.powerJ += joules
	}
	if g.Energy.OK {
		joules = 0 // the first reading starts the count
		if e.last.OK {
			if joules = g.Energy.V - e.last.V; joules < 0 {
				joules = g.Energy.V
			}
			e.counted += joules
		}
		e.last = g.Energy
		e.readings++
	}
	return joules
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
