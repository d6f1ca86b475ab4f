package ui

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/sampler"
)

// procCharts are the process view's charts: each series is one of the
// process's figures the history keeps for every PID of each snapshot
// (histpoint.go: the GPU figures folded over the GPUs it is on, its own
// CPU and RSS, its workers' on the host).
func procCharts(c *common, pid int) []chartSpec {
	st, w := c.st, c.word
	palette := []lipgloss.Style{st.Accent, st.OK, st.Info, st.Warn}
	se := func(name string, style int, fig int) chartSeries {
		return chartSeries{name: name, style: palette[style%len(palette)], pid: pid, fig: fig}
	}
	return []chartSpec{
		{title: w("pview.chart.gpu_mem"), unit: "GiB", scale: 1 << 30,
			series: []chartSeries{se(w("pview.chart.gpu_mem_short"), 2, procGPUMem)}},
		// NVML's per-process sample is a share of GPU time (what GPU-Util is
		// for the whole GPU), not SM activity: labelled as such, apart from
		// the GPU pane's "SM" (GPM's SM active).
		{title: w("procs.col.sm"), unit: "% " + w("pview.chart.of_gpu_time"), top: func(*sampler.GPU) float64 { return 100 },
			series: []chartSeries{se(w("procs.col.sm"), 1, procSM)}},
		{title: "CPU", unit: "% " + w("pview.chart.of_core"),
			series: []chartSeries{se(w("pview.chart.own"), 0, procCPU), se(w("pview.chart.workers"), 3, procCPUWorkers)}},
		{title: w("procs.col.rss"), unit: "GiB", scale: 1 << 30,
			series: []chartSeries{se(w("pview.chart.own"), 0, procRSS), se(w("pview.chart.workers"), 3, procRSSWorkers)}},
	}
}
