package summary

import (
	"math"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/stat"
)

// Streaming statistics: a report reads each snapshot once and keeps only
// fixed-size state per GPU, so a 24-hour, 8-GPU recording needs kilobytes,
// not the samples (the budget, < 200 MB and < 10 s: docs/benchmarks.md).
const (
	// histStep is the percentile resolution (0.5 percentage
	// points is finer than any decision a report supports, and 201 bins of
	// 0-100 % need no sample storage). Bins are centred on multiples of the
	// step, so integer readings (nvidia-smi prints whole percents) are exact.
	histStep = 0.5
	histBins = int(100/histStep) + 1
	// maxSampleGap: a longer interval between two samples is a pause in the
	// log (diagnose.MaxSampleGap, the one bound for every face).
	maxSampleGap = diagnose.MaxSampleGap
)

// hist is a fixed-bin histogram of a 0-100 % reading with an exact mean.
type hist struct {
	bins [histBins]uint32
	n    int
	sum  float64
}

func (h *hist) add(m sampler.Metric) {
	if !m.OK || math.IsNaN(m.V) {
		return
	}
	v := min(max(m.V, 0), 100)
	h.bins[int(math.Round(v/histStep))]++
	h.n++
	h.sum += v
}

// percentile is the nearest-rank p-th percentile (0 < p <= 100), as the
// centre of its bin.
func (h *hist) percentile(p float64) float64 {
	rank := uint64(max(stat.RankIndex(h.n, p)+1, 1)) // 1-based; 1 when empty
	var cum uint64
	for i, c := range h.bins {
		cum += uint64(c)
		if cum >= rank {
			return float64(i) * histStep
		}
	}
	return 100
}

// dist summarises the histogram; nil when the reading was never present.
func (h *hist) dist() *Dist {
	if h.n == 0 {
		return nil
	}
	return &Dist{
		Mean: h.sum / float64(h.n), P5: h.percentile(5), P50: h.percentile(50),
		P95: h.percentile(95), Samples: h.n,
	}
}

// meanMax accumulates the mean and maximum of a reading.
type meanMax struct {
	n   int
	sum float64
	max float64
}

func (a *meanMax) add(m sampler.Metric) {
	if !m.OK || math.IsNaN(m.V) || math.IsInf(m.V, 0) {
		return
	}
	if a.n == 0 || m.V > a.max {
		a.max = m.V
	}
	a.n++
	a.sum += m.V
}

func (a *meanMax) mean() sampler.Metric {
	if a.n == 0 {
		return sampler.NA
	}
	return sampler.Some(a.sum / float64(a.n))
}

func (a *meanMax) peak() sampler.Metric {
	if a.n == 0 {
		return sampler.NA
	}
	return sampler.Some(a.max)
}

// throttleReasons are the clock-event bits that hold clocks down, in the
// order reports list them; idle, app-clock and display settings are not
// slowdowns (sampler.ClockEvents.Throttled).
var throttleReasons = [...]struct {
	bit  uint64
	name string
}{
	{sampler.ClockSwPowerCap, "sw_power_cap"},
	{sampler.ClockHwSlowdown, "hw_slowdown"},
	{sampler.ClockHwPowerBrake, "hw_power_brake"},
	{sampler.ClockSwThermal, "sw_thermal"},
	{sampler.ClockHwThermal, "hw_thermal"},
	{sampler.ClockSyncBoost, "sync_boost"},
}

// gpuAcc accumulates one GPU's figures over the report's range.
type gpuAcc struct {
	index       int
	name, uuid  string
	lost        bool
	samples     int
	first, last time.Time
	// The last snapshot's virtualisation facts (vGPU host or guest).
	virt, license string
	vgpus         []sampler.VGPU

	util, sm, tensor   hist
	power, share, temp meanMax
	mem                meanMax // used bytes: only the peak is reported
	energy             energyAcc
	memTotal, limit    sampler.Metric

	eventsKnown bool
	throttled   time.Duration // any throttle reason
	byReason    [len(throttleReasons)]time.Duration

	chart Series
}

// add takes one sample and returns its energy in joules (energyAcc.add).
func (a *gpuAcc) add(t time.Time, g *sampler.GPU) float64 {
	if g.Name != "" {
		a.name = g.Name
	}
	if g.UUID != "" {
		a.uuid = g.UUID
	}
	a.lost = a.lost || g.Lost
	if g.Virtualization != "" || g.License != "" || len(g.VGPUs) > 0 {
		a.virt, a.license, a.vgpus = g.Virtualization, g.License, g.VGPUs
	}
	// The reading at t describes the period since the previous sample
	// (NVML utilisation is averaged over it), so that interval takes t's state.
	var dt time.Duration
	if a.samples > 0 {
		if d := t.Sub(a.last); d > 0 && d <= maxSampleGap {
			dt = d
		}
	} else {
		a.first = t
	}
	a.samples++
	a.last = t

	a.util.add(g.Util)
	a.sm.add(g.SMActive)
	a.tensor.add(g.TensorActive)
	a.power.add(g.Power)
	joules := a.energy.add(g, dt)
	a.temp.add(g.Temp)
	a.mem.add(g.MemUsed)
	if g.MemTotal.OK {
		a.memTotal = g.MemTotal
	}
	share := sampler.NA
	if g.PowerLimit.OK && g.PowerLimit.V > 0 {
		a.limit = g.PowerLimit
		if g.Power.OK {
			share = sampler.Some(100 * g.Power.V / g.PowerLimit.V)
		}
	}
	a.share.add(share)

	if g.ClockEvents.OK {
		a.eventsKnown = true
		if g.ClockEvents.Throttled() {
			a.throttled += dt
		}
		for i, r := range throttleReasons {
			if g.ClockEvents.Mask&r.bit != 0 {
				a.byReason[i] += dt
			}
		}
	}
	a.chart.add(t, [ChartMetrics]sampler.Metric{g.Util, g.SMActive, g.TensorActive, share})
	return joules
}

// finish turns the accumulator into the report's figures.
func (a *gpuAcc) finish() GPU {
	g := GPU{
		Index: a.index, Name: a.name, UUID: a.uuid, Lost: a.lost, Samples: a.samples,
		First: a.first, Last: a.last,
		Util: a.util.dist(), SMActive: a.sm.dist(), TensorActive: a.tensor.dist(),
		MemPeak: a.mem.peak(), MemTotal: a.memTotal,
		PowerMean: a.power.mean(), PowerMax: a.power.peak(), PowerLimit: a.limit,
		PowerShareMean: a.share.mean(), PowerShareMax: a.share.peak(),
		TempMax:        a.temp.peak(),
		Virtualization: a.virt, License: a.license, VGPUs: a.vgpus,
	}
	g.EnergyKWh, g.EnergyFrom = a.energy.kWh()
	if a.eventsKnown {
		g.ThrottledSeconds = sampler.Some(a.throttled.Seconds())
		g.ThrottleReasons = map[string]float64{}
		for i, r := range throttleReasons {
			if a.byReason[i] > 0 {
				g.ThrottleReasons[r.name] = a.byReason[i].Seconds()
			}
		}
	}
	return g
}
