package diagnose

import (
	"slices"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Window requirements shared by the workload rules.
const (
	// graceNewProcess: a new process's first seconds (loading data, compiling)
	// look like any bottleneck. 30 s, the low end of the 30-60 s the
	// profilers wait ([nsight-systems], [sagemaker-debugger-rules]), so a
	// 3-minute run still gets a verdict.
	graceNewProcess = 30 * time.Second
	// minWorkloadSpan: the shortest stretch a workload rule judges; the
	// profilers judge utilisation over 30-60 s ([nsight-systems],
	// [sagemaker-debugger-rules] LowGPUUtilization).
	minWorkloadSpan = 30 * time.Second
)

// gpuCtx is one GPU's view of the window, computed once per evaluation.
type gpuCtx struct {
	idx  int
	last *sampler.GPU // reading in the newest snapshot
	col  []gpuSample  // this GPU in each snapshot of the window (column.go)
	// column holds col and what the window before left of its statistics.
	column *column
	// from is the first window index the workload rules use: after the main
	// process's grace period.
	from    int
	samples int           // snapshots in w[from:] carrying this GPU, not lost
	span    time.Duration // time covered by w[from:]

	util, sm, tensor, dram, power, mem stats // power, mem: percent of limit / total

	main     *sampler.GPUProc // the process holding the most memory (newest snapshot)
	mainHost *sampler.Proc
	mature   bool // main process past its grace period
	server   bool // main process (or its parent) is an inference server
	notebook bool
	// anonymous: the data has no process list (an imported log) and main
	// stands for whatever runs on the busy GPU.
	anonymous bool
	job       int // index into ctx.jobs, -1 if none

	suppressed uint32 // bit i set: Rules[i] must not fire on this GPU

	// Asked by several rules, computed once (procs.go).
	mainCPU struct {
		v        float64
		ok, done bool
	}
	workers *workerStats
}

// job is the processes of one launch (torchrun ranks share a parent), and the
// GPUs they run on.
type job struct {
	key  int   // parent PID, or the PID of a lone process
	gpus []int // positions in ctx.gpus
	pids []int // one per GPU position, the job's process there
}

// ctx is everything the rules share for one evaluation.
type ctx struct {
	w         []sampler.Snapshot
	last      *sampler.Snapshot
	span      time.Duration
	gpus      []gpuCtx
	jobs      []job
	hostSeen  bool // any snapshot carries host data
	buf       []float64
	buf2      []float64
	series    [6][]float64 // scratch for summariseGPU
	jobSeries [][]float64  // scratch for jobCorrelation
	orders    *orders      // the Engine's sorted series; nil: select afresh
	rows      []procRows   // w's hosts' processes where the window kept only figures (slim.go)
	walkAll   bool         // tests: the column's quick checks (colhealth.go) bypassed
	words     *words       // the Engine's findings' English (words.go); nil: worded afresh
}

func (g *gpuCtx) suppress(rule int)          { g.suppressed |= 1 << rule }
func (g *gpuCtx) isSuppressed(rule int) bool { return g.suppressed&(1<<rule) != 0 }

// workload reports whether workload rules may judge this GPU: it runs a
// process past its grace period and enough window follows. Not inlined,
// as gpuIn: 15 call sites.
//
//go:noinline
func (g *gpuCtx) workload() bool {
	return g.main != nil && g.mature && g.span >= minWorkloadSpan && g.samples >= 3
}

func newCtx(w []sampler.Snapshot) *ctx { return newCtxOrders(w, nil) }

// newCtxOrders is newCtx with the Engine's sorted series kept across
// evaluations (orders.go); o nil: none.
func newCtxOrders(w []sampler.Snapshot, o *orders) *ctx {
	c, cols := &ctx{}, &columns{}
	if o != nil {
		c, cols = o.ctx(), &o.cols
		c.rows = o.rows
	}
	c.w, c.last, c.orders = w, &w[len(w)-1], o
	cols.slide(w)
	c.span = c.last.Time.Sub(w[0].Time)
	for i := range w {
		if w[i].Host != nil {
			c.hostSeen = true
			break
		}
	}
	c.gpus = slices.Grow(c.gpus, len(c.last.GPUs))[:len(c.last.GPUs)]
	clear(c.gpus)
	for i := range c.last.GPUs {
		g := &c.gpus[i]
		g.column = cols.column(c.last.GPUs[i].Index, w)
		g.col = g.column.s
		c.initGPU(&c.gpus[i], &c.last.GPUs[i])
	}
	c.groupJobs()
	return c
}

func (c *ctx) initGPU(g *gpuCtx, last *sampler.GPU) {
	g.idx, g.last, g.job = last.Index, last, -1
	for i := range last.Procs {
		p := &last.Procs[i]
		if g.main == nil || p.MemUsed.Or(0) > g.main.MemUsed.Or(0) {
			g.main = p
		}
	}
	if g.main != nil {
		g.mainHost = hostProc(c.last, g.main, g.main.PID)
		if g.mainHost != nil {
			g.server, g.notebook = g.column.kindOf(g.mainHost, c.parentOf(g.mainHost))
		}
		start := c.processStart(g.idx, g.main.PID, g.mainHost)
		g.from = len(c.w)
		for i := range c.w {
			if !c.w[i].Time.Before(start.Add(graceNewProcess)) {
				g.from = i
				break
			}
		}
		g.mature = g.from < len(c.w)
	}
	if g.from >= len(c.w) {
		return
	}
	g.span = c.last.Time.Sub(c.w[g.from].Time)
	c.summariseGPU(g)
	if g.main == nil && !c.hostSeen && !c.anyProcListed() && g.util.p95 >= everRuns {
		// An imported log without process data: the GPU clearly runs work, so
		// judge it as an unlisted process, and say so in every finding.
		g.main, g.mature, g.anonymous = &sampler.GPUProc{}, true, true
	}
}

// anyProcListed reports whether the newest snapshot lists any GPU process.
func (c *ctx) anyProcListed() bool {
	for i := range c.last.GPUs {
		if len(c.last.GPUs[i].Procs) > 0 {
			return true
		}
	}
	return false
}

// processStart is when pid started: the host's start time, else the first
// snapshot showing it on the GPU; a process already in the oldest snapshot
// with no start time is taken as old (it predates the window).
func (c *ctx) processStart(idx, pid int, hp *sampler.Proc) time.Time {
	if hp != nil && !hp.Start.IsZero() {
		return hp.Start
	}
	for i := range c.w {
		if g := gpuIn(&c.w[i], idx); g != nil && findProc(g, pid) != nil {
			if i == 0 {
				return c.w[0].Time.Add(-graceNewProcess)
			}
			return c.w[i].Time
		}
	}
	return c.last.Time
}

func (c *ctx) parentOf(p *sampler.Proc) *sampler.Proc {
	if p == nil || c.last.Host == nil || c.last.Host.Procs == nil {
		return nil
	}
	return c.last.Host.Procs[p.PPID]
}

// summariseGPU fills the per-metric stats over w[from:]: an Engine's from
// the sorted series its column keeps (colstats.go), else by selection over
// the column's values, gathered into buffers reused across GPUs (the
// same figures: percentiles are the values a sort puts at the ranks).
func (c *ctx) summariseGPU(g *gpuCtx) {
	out, ok := [6]stats{}, false
	if c.orders != nil {
		out, ok = g.column.stats(g.from)
	}
	if !ok {
		bufs := &c.series
		for k := range bufs {
			bufs[k] = bufs[k][:0]
		}
		for i := g.from; i < len(c.w); i++ {
			x := &g.col[i]
			if x.has&sampleLost != 0 {
				continue
			}
			for k := range bufs {
				if x.has&(1<<k) != 0 {
					bufs[k] = append(bufs[k], x.vals[k])
				}
			}
		}
		for k := range bufs {
			out[k] = summarise(bufs[k])
		}
	}
	g.util, g.sm, g.tensor, g.dram, g.power, g.mem = out[0], out[1], out[2], out[3], out[4], out[5]
	g.samples = g.util.n
}

func ratioPct(a, b sampler.Metric) (float64, bool) {
	if !a.OK || !b.OK || b.V <= 0 {
		return 0, false
	}
	return a.V / b.V * 100, true
}

// fracGPU is the share of g's samples (from its window start) where hit holds,
// among samples where known holds, and how many were known.
func (c *ctx) fracGPU(g *gpuCtx, pred func(x *sampler.GPU) (hit, known bool)) (float64, int) {
	hits, known := 0, 0
	for i := g.from; i < len(c.w); i++ {
		x := g.col[i].x
		if x == nil || x.Lost {
			continue
		}
		h, k := pred(x)
		if !k {
			continue
		}
		known++
		if h {
			hits++
		}
	}
	if known == 0 {
		return 0, 0
	}
	return float64(hits) / float64(known), known
}

// fracFlag is fracGPU of the predicate whose bits are f (column.go's
// flag*): an Engine's from the counts its column keeps with the sorted
// series (colstats.go), else counted from the column's samples.
func (c *ctx) fracFlag(g *gpuCtx, f uint16) (float64, int) {
	known, hits, ok := 0, 0, false
	if c.orders != nil && !c.walkAll {
		known, hits, ok = g.column.counted(g.from, f)
	}
	if !ok {
		known, hits = walkFlag(g.col[g.from:], f)
	}
	if known == 0 {
		return 0, 0
	}
	return float64(hits) / float64(known), known
}

// walkFlag counts the samples that judge predicate f and those where it
// holds.
func walkFlag(col []gpuSample, f uint16) (known, hits int) {
	for _, x := range col {
		if x.flags&f != 0 {
			known++
			if x.flags&(f<<1) != 0 {
				hits++
			}
		}
	}
	return known, hits
}
