package ui

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/sampler"
)

// procCharts are the process view's charts: each series reads the
// process's figures from a whole snapshot, since a process may hold
// several GPUs and its workers are host processes.
func procCharts(c *common, pid int) []chartSpec {
	st, w := c.st, c.word
	palette := []lipgloss.Style{st.Accent, st.OK, st.Info, st.Warn}
	se := func(name string, style int, f func(s *sampler.Snapshot) sampler.Metric) chartSeries {
		return chartSeries{name: name, style: palette[style%len(palette)], snap: f}
	}
	// onGPUs folds the process's reading over the GPUs it is on: the sum
	// (memory) or the mean (SM %); n/a where no GPU reports it.
	onGPUs := func(get func(p *sampler.GPUProc) sampler.Metric, mean bool) func(s *sampler.Snapshot) sampler.Metric {
		return func(s *sampler.Snapshot) sampler.Metric {
			sum, n := 0.0, 0
			for gi := range s.GPUs {
				for pi := range s.GPUs[gi].Procs {
					if pr := &s.GPUs[gi].Procs[pi]; pr.PID == pid {
						if m := get(pr); m.OK {
							sum, n = sum+m.V, n+1
						}
					}
				}
			}
			if n == 0 {
				return sampler.Metric{}
			}
			if mean {
				sum /= float64(n)
			}
			return sampler.Some(sum)
		}
	}
	own := func(get func(h *sampler.Proc) sampler.Metric) func(s *sampler.Snapshot) sampler.Metric {
		return func(s *sampler.Snapshot) sampler.Metric {
			if _, h := procIn(s, pid); h != nil {
				return get(h)
			}
			return sampler.Metric{}
		}
	}
	// workers sums the reading over the process's children on the host.
	workers := func(get func(h *sampler.Proc) sampler.Metric) func(s *sampler.Snapshot) sampler.Metric {
		return func(s *sampler.Snapshot) sampler.Metric {
			_, h := procIn(s, pid)
			if h == nil || len(h.Children) == 0 || s.Host == nil {
				return sampler.Metric{}
			}
			sum, n := 0.0, 0
			for _, k := range h.Children {
				if kp := s.Host.Procs[k]; kp != nil {
					if m := get(kp); m.OK {
						sum, n = sum+m.V, n+1
					}
				}
			}
			if n == 0 {
				return sampler.Metric{}
			}
			return sampler.Some(sum)
		}
	}
	cpu := func(h *sampler.Proc) sampler.Metric { return h.CPU }
	rss := func(h *sampler.Proc) sampler.Metric { return h.RSS }
	return []chartSpec{
		{title: w("pview.chart.gpu_mem"), unit: "GiB", scale: 1 << 30,
			series: []chartSeries{se(w("pview.chart.gpu_mem_short"), 2, onGPUs(func(p *sampler.GPUProc) sampler.Metric { return p.MemUsed }, false))}},
		// NVML's per-process sample is a share of GPU time (what GPU-Util is
		// for the whole GPU), not SM activity: labelled as such, apart from
		// the GPU pane's "SM" (GPM's SM active).
		{title: w("procs.col.sm"), unit: "% " + w("pview.chart.of_gpu_time"), top: func(*sampler.GPU) float64 { return 100 },
			series: []chartSeries{se(w("procs.col.sm"), 1, onGPUs(func(p *sampler.GPUProc) sampler.Metric { return p.SMUtil }, true))}},
		{title: "CPU", unit: "% " + w("pview.chart.of_core"),
			series: []chartSeries{se(w("pview.chart.own"), 0, own(cpu)), se(w("pview.chart.workers"), 3, workers(cpu))}},
		{title: w("procs.col.rss"), unit: "GiB", scale: 1 << 30,
			series: []chartSeries{se(w("pview.chart.own"), 0, own(rss)), se(w("pview.chart.workers"), 3, workers(rss))}},
	}
}
