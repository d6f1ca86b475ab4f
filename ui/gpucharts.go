package ui

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// gpmNA is why GPM charts are empty on pre-Hopper GPUs (GPM is Hopper+).
const gpmNA = sampler.ReasonNoGPM

// pcieLaneGBs is the usable one-direction rate of one PCIe lane in GB/s
// by generation, after line encoding (PCI-SIG base specs: 2.5/5 GT/s with
// 8b/10b, 8/16/32/64 GT/s with 128b/130b; Gen6 FLIT ≈ 7.56).
var pcieLaneGBs = map[int]float64{1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}

// pcieCapacity is the link's current one-direction capacity in bytes/s, 0
// when the generation or width is unknown.
func pcieCapacity(g *sampler.GPU) float64 {
	if !g.PCIeGen.OK || !g.PCIeWidth.OK {
		return 0
	}
	return pcieLaneGBs[int(g.PCIeGen.V)] * g.PCIeWidth.V * 1e9
}

// naReason says why field (its JSON name) is n/a on g.
func naReason(c *common, g *sampler.GPU, field string, gpm bool) string {
	preHopper := !sampler.ArchHasGPM(g.Arch)
	if r := g.NA[field]; r != "" {
		// The NVML reader says ReasonNoGPM itself; recordings made before
		// it did say "not supported".
		if gpm && r == "not supported" && preHopper {
			return gpmNA
		}
		return r
	}
	if gpm && preHopper { // logs of other tools carry no reasons
		return gpmNA
	}
	return c.word("chart.not_reported")
}

// gpuCharts are the detail view's charts for g; a chart whose metric g
// lacks carries the reason instead of a plot.
func gpuCharts(c *common, g *sampler.GPU) []chartSpec {
	st, w := c.st, c.word
	palette := []lipgloss.Style{st.Accent, st.OK, st.Info, st.Warn, st.Muted}
	se := func(name string, style int, f func(g *sampler.GPU) sampler.Metric) chartSeries {
		return chartSeries{name: name, style: palette[style%len(palette)], get: f}
	}
	util := chartSpec{title: w("chart.util"), unit: "%", top: func(*sampler.GPU) float64 { return 100 },
		series: []chartSeries{se(w("gpu.util"), 0, func(g *sampler.GPU) sampler.Metric { return g.Util })}}
	if !g.Util.OK {
		util.na = naReason(c, g, sampler.NAUtil, false)
	}
	if g.SMActive.OK {
		util.series = append(util.series,
			se("SM", 1, func(g *sampler.GPU) sampler.Metric { return g.SMActive }),
			se(w("chart.occ"), 2, func(g *sampler.GPU) sampler.Metric { return g.SMOccupancy }),
			se(w("gpu.tensor"), 3, func(g *sampler.GPU) sampler.Metric { return g.TensorActive }))
	} else {
		util.note = w("chart.sm_activity") + " " + naReason(c, g, sampler.NASMActive, true)
	}

	dram := chartSpec{title: w("chart.dram"), unit: "% " + w("chart.busy"), top: func(*sampler.GPU) float64 { return 100 },
		series: []chartSeries{se("DRAM", 2, func(g *sampler.GPU) sampler.Metric { return g.DRAMActive })}}
	if !g.DRAMActive.OK {
		dram.title, dram.note = w("chart.mem_ctl_util"), w("chart.dram_active")+" "+naReason(c, g, sampler.NADRAMActive, true)
		dram.series = []chartSeries{se(w("chart.mem_ctl"), 2, func(g *sampler.GPU) sampler.Metric { return g.MemUtil })}
		if !g.MemUtil.OK {
			dram.na = naReason(c, g, sampler.NAMemUtil, false)
		}
	}

	mem := chartSpec{title: w("chart.mem_used"), unit: c.say("chart.gib_of", map[string]any{"Total": units.Compact.Bytes(g.MemTotal)}), scale: 1 << 30, // GiB
		top:    func(g *sampler.GPU) float64 { return g.MemTotal.Or(0) },
		series: []chartSeries{se(w("chart.used"), 2, func(g *sampler.GPU) sampler.Metric { return g.MemUsed })}}
	if !g.MemUsed.OK {
		mem.na = naReason(c, g, sampler.NAMemUsed, false)
	}

	power := chartSpec{title: w("chart.power"), unit: c.say("chart.w_limit", map[string]any{"Limit": units.Compact.Whole(g.PowerLimit, "W")}),
		top: func(g *sampler.GPU) float64 { return g.PowerLimit.Or(0) },
		series: []chartSeries{se(w("chart.power"), 0, func(g *sampler.GPU) sampler.Metric { return g.Power }),
			se(w("chart.limit"), 4, func(g *sampler.GPU) sampler.Metric { return g.PowerLimit })}}
	if !g.Power.OK {
		power.na = naReason(c, g, sampler.NAPower, false)
	}

	temp := chartSpec{title: w("chart.temperature"), unit: c.say("chart.c_slowdown", map[string]any{"Slowdown": units.Compact.Whole(g.TempSlowdown, "°C")}),
		top: func(g *sampler.GPU) float64 { return g.TempSlowdown.Or(defaultSlowdownC) },
		series: []chartSeries{se(w("chart.temp"), 3, func(g *sampler.GPU) sampler.Metric { return g.Temp }),
			se(w("chart.slowdown"), 4, func(g *sampler.GPU) sampler.Metric { return g.TempSlowdown })}}
	if !g.Temp.OK {
		temp.na = naReason(c, g, sampler.NATemp, false)
	}

	clocks := chartSpec{title: w("chart.clocks"), unit: c.say("chart.mhz_max", map[string]any{"SM": units.Compact.Whole(g.SMClockMax, ""), "Mem": units.Compact.Whole(g.MemClockMax, "")}),
		top: func(g *sampler.GPU) float64 { return max(g.SMClockMax.Or(0), g.MemClockMax.Or(0)) },
		series: []chartSeries{se("SM", 0, func(g *sampler.GPU) sampler.Metric { return g.SMClock }),
			se(w("gpu.mem"), 2, func(g *sampler.GPU) sampler.Metric { return g.MemClock })}}
	if !g.SMClock.OK && !g.MemClock.OK {
		clocks.na = naReason(c, g, sampler.NASMClock, false)
	}

	capacity := w("chart.link_na")
	if bps := pcieCapacity(g); bps > 0 {
		capacity = c.say("chart.link", map[string]any{"GBs": fmt.Sprintf("%.0f", bps/1e9)})
	}
	pcie := chartSpec{title: "PCIe", unit: capacity, scale: 1e9,
		top: pcieCapacity,
		series: []chartSeries{se(w("net.rx"), 1, func(g *sampler.GPU) sampler.Metric { return g.PCIeRx }),
			se(w("net.tx"), 3, func(g *sampler.GPU) sampler.Metric { return g.PCIeTx })}}
	if !g.PCIeRx.OK && !g.PCIeTx.OK {
		pcie.na = naReason(c, g, sampler.NAPCIeRx, false)
	}

	nvl := chartSpec{title: "NVLink", unit: "GB/s", scale: 1e9,
		series: []chartSeries{se(w("net.rx"), 1, func(g *sampler.GPU) sampler.Metric { return g.NVLinkRx }),
			se(w("net.tx"), 3, func(g *sampler.GPU) sampler.Metric { return g.NVLinkTx })}}
	if !g.NVLinkRx.OK && !g.NVLinkTx.OK {
		nvl.na = naReason(c, g, sampler.NANVLinkRx, true)
		if r := g.NA[sampler.NANVLinkRx]; len(g.NVLinks) == 0 && (r == "" || r == "not supported") {
			nvl.na = w("chart.no_nvlink")
		}
	}
	return []chartSpec{util, dram, mem, power, temp, clocks, pcie, nvl}
}
