package ui

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/themes"
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
func naReason(g *sampler.GPU, field string, gpm bool) string {
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
	return "not reported by this GPU"
}

// gpuCharts are the detail view's charts for g; a chart whose metric g
// lacks carries the reason instead of a plot.
func gpuCharts(st *themes.Styles, g *sampler.GPU) []chartSpec {
	palette := []lipgloss.Style{st.Accent, st.OK, st.Info, st.Warn, st.Muted}
	se := func(name string, style int, f func(g *sampler.GPU) sampler.Metric) chartSeries {
		return chartSeries{name: name, style: palette[style%len(palette)], get: f}
	}
	util := chartSpec{title: "GPU-Util", unit: "%", top: func(*sampler.GPU) float64 { return 100 },
		series: []chartSeries{se("util", 0, func(g *sampler.GPU) sampler.Metric { return g.Util })}}
	if !g.Util.OK {
		util.na = naReason(g, sampler.NAUtil, false)
	}
	if g.SMActive.OK {
		util.series = append(util.series,
			se("SM", 1, func(g *sampler.GPU) sampler.Metric { return g.SMActive }),
			se("occ", 2, func(g *sampler.GPU) sampler.Metric { return g.SMOccupancy }),
			se("tensor", 3, func(g *sampler.GPU) sampler.Metric { return g.TensorActive }))
	} else {
		util.note = "SM activity " + naReason(g, sampler.NASMActive, true)
	}

	dram := chartSpec{title: "DRAM bandwidth", unit: "% busy", top: func(*sampler.GPU) float64 { return 100 },
		series: []chartSeries{se("DRAM", 2, func(g *sampler.GPU) sampler.Metric { return g.DRAMActive })}}
	if !g.DRAMActive.OK {
		dram.title, dram.note = "memory-controller util", "DRAM active "+naReason(g, sampler.NADRAMActive, true)
		dram.series = []chartSeries{se("mem ctl", 2, func(g *sampler.GPU) sampler.Metric { return g.MemUtil })}
		if !g.MemUtil.OK {
			dram.na = naReason(g, sampler.NAMemUtil, false)
		}
	}

	mem := chartSpec{title: "memory used", unit: "GiB of " + fmtMetricBytes(g.MemTotal), scale: 1 << 30, // GiB
		top:    func(g *sampler.GPU) float64 { return g.MemTotal.Or(0) },
		series: []chartSeries{se("used", 2, func(g *sampler.GPU) sampler.Metric { return g.MemUsed })}}
	if !g.MemUsed.OK {
		mem.na = naReason(g, sampler.NAMemUsed, false)
	}

	power := chartSpec{title: "power", unit: "W, limit " + fmtUnit(g.PowerLimit, "W"),
		top: func(g *sampler.GPU) float64 { return g.PowerLimit.Or(0) },
		series: []chartSeries{se("power", 0, func(g *sampler.GPU) sampler.Metric { return g.Power }),
			se("limit", 4, func(g *sampler.GPU) sampler.Metric { return g.PowerLimit })}}
	if !g.Power.OK {
		power.na = naReason(g, sampler.NAPower, false)
	}

	temp := chartSpec{title: "temperature", unit: "°C, slowdown " + fmtUnit(g.TempSlowdown, "°C"),
		top: func(g *sampler.GPU) float64 { return g.TempSlowdown.Or(defaultSlowdownC) },
		series: []chartSeries{se("temp", 3, func(g *sampler.GPU) sampler.Metric { return g.Temp }),
			se("slowdown", 4, func(g *sampler.GPU) sampler.Metric { return g.TempSlowdown })}}
	if !g.Temp.OK {
		temp.na = naReason(g, sampler.NATemp, false)
	}

	clocks := chartSpec{title: "clocks", unit: fmt.Sprintf("MHz, max SM %s mem %s", fmtUnit(g.SMClockMax, ""), fmtUnit(g.MemClockMax, "")),
		top: func(g *sampler.GPU) float64 { return max(g.SMClockMax.Or(0), g.MemClockMax.Or(0)) },
		series: []chartSeries{se("SM", 0, func(g *sampler.GPU) sampler.Metric { return g.SMClock }),
			se("mem", 2, func(g *sampler.GPU) sampler.Metric { return g.MemClock })}}
	if !g.SMClock.OK && !g.MemClock.OK {
		clocks.na = naReason(g, sampler.NASMClock, false)
	}

	capacity := "link capacity n/a"
	if c := pcieCapacity(g); c > 0 {
		capacity = fmt.Sprintf("GB/s, link %.0f GB/s each way", c/1e9)
	}
	pcie := chartSpec{title: "PCIe", unit: capacity, scale: 1e9,
		top: pcieCapacity,
		series: []chartSeries{se("rx", 1, func(g *sampler.GPU) sampler.Metric { return g.PCIeRx }),
			se("tx", 3, func(g *sampler.GPU) sampler.Metric { return g.PCIeTx })}}
	if !g.PCIeRx.OK && !g.PCIeTx.OK {
		pcie.na = naReason(g, sampler.NAPCIeRx, false)
	}

	nvl := chartSpec{title: "NVLink", unit: "GB/s", scale: 1e9,
		series: []chartSeries{se("rx", 1, func(g *sampler.GPU) sampler.Metric { return g.NVLinkRx }),
			se("tx", 3, func(g *sampler.GPU) sampler.Metric { return g.NVLinkTx })}}
	if !g.NVLinkRx.OK && !g.NVLinkTx.OK {
		nvl.na = naReason(g, sampler.NANVLinkRx, true)
		if r := g.NA[sampler.NANVLinkRx]; len(g.NVLinks) == 0 && (r == "" || r == "not supported") {
			nvl.na = "no NVLink on this GPU"
		}
	}
	return []chartSpec{util, dram, mem, power, temp, clocks, pcie, nvl}
}
