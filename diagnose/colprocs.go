package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// procSeen is one process as procAt sees it in each sample of a column,
// kept while the window slides as the column's samples are: the input
// rules walk the main process's and its workers' CPU and state over the
// window every evaluation, and each step was a lookup in the host's map
// or its rows (docs/benchmarks.md, "Recording a day: the diagnosis's
// context carried"). A snapshot is read-only and a slimmed host keeps
// the same figures (slim.go), so a sample's answer holds while it stays
// in the window.
type procSeen struct {
	pid int
	via bool // looked up through the GPU's own process (walkProcCPU)
	gen int  // the evaluation that last asked
	at  []procSample
	// base is the array at lies in, from its start (column.base's slack).
	base []procSample
}

// procSample is procAt's answer, as the walks read it.
type procSample struct {
	cpu    float64
	cpuOK  bool // found, with a CPU figure
	stated bool // found, with a state
	inD    bool // in state D
}

// slideProcs keeps the processes asked in the evaluation before (gen)
// that the window continues: shift samples left, kept stay.
func (col *column) slideProcs(gen, shift, kept int) {
	live := col.procs[:0]
	for _, p := range col.procs {
		if p.gen != gen || len(p.at) < shift+kept {
			continue
		}
		p.at = p.at[shift : shift+kept]
		live = append(live, p)
	}
	clear(col.procs[len(live):])
	col.procs = live
}

// procSeries is pid's procAt in each sample of g's window (via: through
// the GPU's own process there), kept on g's column.
func (c *ctx) procSeries(g *gpuCtx, pid int, via bool) []procSample {
	col := g.column
	var p *procSeen
	for _, q := range col.procs {
		if q.pid == pid && q.via == via {
			p = q
			break
		}
	}
	if p == nil {
		p = &procSeen{pid: pid, via: via}
		col.procs = append(col.procs, p)
	}
	if p.gen != col.gen {
		p.gen = col.gen
		if cap(p.at) < len(c.w) {
			if cap(p.base) < len(c.w) {
				p.base = make([]procSample, 0, len(c.w)+len(c.w)/8)
			}
			p.at = p.base[:copy(p.base[:len(p.at)], p.at)]
		}
	}
	for i := len(p.at); i < len(c.w); i++ {
		var gp *sampler.GPUProc
		if x := g.col[i].x; via && x != nil {
			gp = findProc(x, pid)
		}
		cpu, state, ok := c.procAt(i, gp, pid)
		p.at = append(p.at, procSample{cpu: cpu.V, cpuOK: ok && cpu.OK, stated: ok && state != "", inD: ok && state == "D"})
	}
	return p.at
}
