package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// Host-side views of the GPU processes: CPU, workers, host-wide metrics.

// procCPU is pid's mean CPU (percent of one core) over w[from:], and whether
// any sample had it. The main process's is kept on g: four rules and the
// checklist ask for it, each a walk of the window through the host's map.
func (c *ctx) procCPU(g *gpuCtx, pid int) (float64, bool) {
	if g.main != nil && pid == g.main.PID {
		if !g.mainCPU.done {
			g.mainCPU.v, g.mainCPU.ok = c.walkProcCPU(g, pid)
			g.mainCPU.done = true
		}
		return g.mainCPU.v, g.mainCPU.ok
	}
	return c.walkProcCPU(g, pid)
}

func (c *ctx) walkProcCPU(g *gpuCtx, pid int) (float64, bool) {
	sum, n := 0.0, 0
	for _, x := range c.procSeries(g, pid, true)[g.from:] {
		if x.cpuOK {
			sum += x.cpu
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// workerStats describes the main process's children (DataLoader workers) in
// the newest snapshot, with their mean CPU over the window.
type workerStats struct {
	n         int     // children known to the host
	minCPU    float64 // lowest mean CPU among them
	meanCPU   float64
	inD       float64 // share of (sample, process) pairs of the job in state D
	stateSeen bool
}

// workers is kept on g once computed: the input rules ask for it in turn.
// Not inlined, as gpuIn.
//
//go:noinline
func (c *ctx) workers(g *gpuCtx) workerStats {
	if g.workers == nil {
		ws := c.walkWorkers(g)
		g.workers = &ws
	}
	return *g.workers
}

func (c *ctx) walkWorkers(g *gpuCtx) workerStats {
	var ws workerStats
	if g.mainHost == nil || c.last.Host == nil {
		return ws
	}
	ws.minCPU = 1e9
	for _, pid := range g.mainHost.Children {
		cpu, ok := c.procCPU(g, pid)
		if !ok {
			continue
		}
		ws.n++
		ws.meanCPU += cpu
		ws.minCPU = min(ws.minCPU, cpu)
	}
	if ws.n > 0 {
		ws.meanCPU /= float64(ws.n)
	} else {
		ws.minCPU = 0
	}
	// D-state share over the job's processes (main + children): counts,
	// so process by process, each over the window.
	inD, seen := 0, 0
	count := func(pid int) {
		s := c.procSeries(g, pid, false)
		for i := g.from; i < len(s); i++ {
			if s[i].stated && c.hasProcs(i) {
				seen++
				if s[i].inD {
					inD++
				}
			}
		}
	}
	count(g.main.PID)
	for _, pid := range g.mainHost.Children {
		count(pid)
	}
	if seen > 0 {
		ws.inD, ws.stateSeen = float64(inD)/float64(seen), true
	}
	return ws
}

// hostFrac is the share of w[from:] host samples where pred holds, and how
// many samples had the metric.
func (c *ctx) hostFrac(from int, pred func(h *sampler.Host) (hit, known bool)) (float64, int) {
	hits, known := 0, 0
	for i := from; i < len(c.w); i++ {
		h := c.w[i].Host
		if h == nil {
			continue
		}
		hit, k := pred(h)
		if !k {
			continue
		}
		known++
		if hit {
			hits++
		}
	}
	if known == 0 {
		return 0, 0
	}
	return float64(hits) / float64(known), known
}

// hostMean is the mean of a host metric over w[from:].
func (c *ctx) hostMean(from int, f func(h *sampler.Host) sampler.Metric) (float64, bool) {
	sum, n := 0.0, 0
	for i := from; i < len(c.w); i++ {
		if h := c.w[i].Host; h != nil {
			if m := f(h); m.OK {
				sum += m.V
				n++
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}
