package sim

import (
	"math"
	"math/rand/v2"

	"github.com/gpuscope/gpuscope/sampler"
)

// Host figures from docs/scenarios.md: 2 sockets, 112 logical cores, 2 TiB.
const (
	numCores       = 112
	coresPerSocket = numCores / 2
	hostMemTotal   = 2 << 40
	hostSwapTotal  = 8 * gib
	hostMemBase    = 38 * gib // kernel, daemons, page tables (a plausible idle server)
	procSmoothing  = 0.3      // per step pull of a process's CPU toward its target (smooth, as top shows it)
	loadTau1       = 60.0     // the kernel's load averages are 1/5/15-minute EMAs
	loadTau5       = 300.0
	loadTau15      = 900.0
)

// hostProc is one simulated process on the host.
type hostProc struct {
	p      sampler.Proc // identity; CPU and State are set at report time
	target float64      // mean CPU, percent of one core
	jitter float64      // std dev of the CPU reading
	dProb  float64      // chance of being in D (uninterruptible I/O wait) at a step
	core   int          // the core it mostly runs on
	cpu    float64
	state  string
}

// hostSim is the machine around the GPUs.
type hostSim struct {
	rng        *rand.Rand
	procs      []*hostProc
	bgTarget   [numCores]float64 // other tenants, daemons, kernel threads
	bg         [numCores]float64
	cpus       [numCores]float64
	iowaitMean float64
	diskMean   float64 // read, B/s
	netMean    float64 // rx, B/s
	iowait     float64
	diskRead   float64
	diskWrite  float64
	netRx      float64
	netTx      float64
	load       [3]float64
	// loadDt, loadK: the load averages' decay per step of loadDt seconds,
	// exp(-dt/tau), computed once: every step is stepSecs, and three
	// math.Exp a step were a tenth of the host's step (docs/benchmarks.md,
	// "Recording a day: the simulator's share").
	loadDt float64
	loadK  [3]float64
}

func newHostSim(r *rand.Rand) *hostSim {
	h := &hostSim{rng: r}
	h.setBackground(span{0.3, 3}) // an otherwise quiet node
	h.iowaitMean = 0.2 + 0.8*r.Float64()
	h.diskMean = 5e6 + 2e7*r.Float64()
	h.netMean = 2e6 + 8e6*r.Float64()
	return h
}

// setBackground sets every core's load from other work, percent.
func (h *hostSim) setBackground(s span) {
	for i := range h.bgTarget {
		h.bgTarget[i] = s.draw(h.rng)
		h.bg[i] = h.bgTarget[i]
	}
}

// walk moves v toward mean with relative noise: an AR(1) process.
func walk(r *rand.Rand, v, mean, pull, noise float64) float64 {
	return max(0, v+(mean-v)*pull+noise*mean*r.NormFloat64())
}

func (h *hostSim) step(_, dt float64) {
	r := h.rng
	runnable := 0.0
	for i := range h.bg {
		// Noise shrinks near 0% and 100%: a saturated core stays saturated
		// (looks like mpstat on a busy box).
		target := h.bgTarget[i]
		noise := 0.3*min(target, 100-target) + 0.2
		h.bg[i] = min(100, max(0, h.bg[i]+(target-h.bg[i])*0.3+noise*r.NormFloat64()))
		h.cpus[i] = h.bg[i]
		runnable += h.bg[i] / 100
	}
	for _, p := range h.procs {
		p.cpu = max(0, p.cpu+(p.target-p.cpu)*procSmoothing+p.jitter*r.NormFloat64())
		if p.target <= 100 {
			p.cpu = min(p.cpu, 100)
		}
		switch {
		case r.Float64() < p.dProb:
			p.state = "D"
			runnable++
		case p.cpu >= 50:
			p.state = "R"
		default:
			p.state = "S"
		}
		runnable += p.cpu / 100
		if p.target <= 100 { // single-threaded: one core, shared with the background
			h.cpus[p.core] = min(100, h.cpus[p.core]+p.cpu)
			continue
		}
		// Multi-threaded: spread what one core cannot hold over the next cores.
		for c, left := p.core, p.cpu; left > 0 && c < numCores; c++ {
			take := min(left, 100-h.cpus[c])
			h.cpus[c] += take
			left -= take
		}
	}
	h.iowait = min(walk(r, h.iowait, h.iowaitMean, 0.2, 0.08), 100-h.total())
	h.diskRead = walk(r, h.diskRead, h.diskMean, 0.2, 0.1)
	h.diskWrite = walk(r, h.diskWrite, h.diskMean*0.05+1e6, 0.2, 0.2)
	h.netRx = walk(r, h.netRx, h.netMean, 0.2, 0.1)
	h.netTx = walk(r, h.netTx, h.netMean*0.6, 0.2, 0.1)
	if dt != h.loadDt {
		h.loadDt = dt
		for i, tau := range [3]float64{loadTau1, loadTau5, loadTau15} {
			h.loadK[i] = math.Exp(-dt / tau)
		}
	}
	for i, k := range h.loadK {
		h.load[i] = h.load[i]*k + runnable*(1-k)
	}
}

func (h *hostSim) total() float64 {
	s := 0.0
	for _, c := range h.cpus {
		s += c
	}
	return s / numCores
}

// settle starts the load averages at their steady state, as on a node that
// has been running this work for a while.
func (h *hostSim) settle() {
	run := 0.0
	for _, b := range h.bgTarget {
		run += b / 100
	}
	for _, p := range h.procs {
		p.cpu = p.target
		run += p.target/100 + p.dProb
	}
	h.load = [3]float64{run, run, run}
	h.iowait, h.diskRead, h.netRx = h.iowaitMean, h.diskMean, h.netMean
}

func round1(v float64) float64 { return round(v*10) / 10 }

func (h *hostSim) report() *sampler.Host {
	out := &sampler.Host{
		CPUs:   make([]float64, numCores),
		CPU:    sampler.Some(round1(h.total())),
		IOWait: sampler.Some(round1(h.iowait)),
		Load1:  sampler.Some(round(h.load[0]*100) / 100),
		Load5:  sampler.Some(round(h.load[1]*100) / 100),
		Load15: sampler.Some(round(h.load[2]*100) / 100),

		MemTotal:  sampler.Some(hostMemTotal),
		SwapTotal: sampler.Some(hostSwapTotal),
		SwapUsed:  sampler.Some(0),
		DiskRead:  sampler.Some(round(h.diskRead)),
		DiskWrite: sampler.Some(round(h.diskWrite)),
		NetRx:     sampler.Some(round(h.netRx)),
		NetTx:     sampler.Some(round(h.netTx)),
		Procs:     make(map[int]*sampler.Proc, len(h.procs)),
	}
	for i, c := range h.cpus {
		out.CPUs[i] = round1(c)
	}
	// One array for the processes and one for their children, not one
	// allocation each: the report is fresh every tick and the caller keeps
	// it. Each Children is capped so that an append copies.
	procs := make([]sampler.Proc, len(h.procs))
	nKids := 0
	for _, p := range h.procs {
		nKids += len(p.p.Children)
	}
	kids := make([]int, 0, nKids)
	used := float64(hostMemBase)
	for i, p := range h.procs {
		cp := &procs[i]
		*cp = p.p
		cp.CPU = sampler.Some(round1(p.cpu))
		cp.State = p.state
		cp.Children = nil
		if len(p.p.Children) > 0 {
			at := len(kids)
			kids = append(kids, p.p.Children...)
			cp.Children = kids[at:len(kids):len(kids)]
		}
		used += p.p.RSS.V
		out.Procs[cp.PID] = cp
	}
	out.MemUsed = sampler.Some(used)
	return out
}
