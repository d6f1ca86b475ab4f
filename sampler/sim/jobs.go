package sim

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// builder assembles a scenario: GPUs with their configs, jobs with their
// cycles, and the host processes behind them.
type builder struct {
	n         *Node
	rng       *rand.Rand
	nextPID   int
	nextShell int    // PIDs of the login shells jobs start from
	nextCore  [2]int // next free core on each socket
}

func newBuilder(n *Node, rng *rand.Rand) *builder {
	b := &builder{n: n, rng: rng, nextPID: 20000 + rng.IntN(400000), nextShell: 1000 + rng.IntN(3000)}
	b.nextCore = [2]int{2 + rng.IntN(8), coresPerSocket + 2 + rng.IntN(8)}
	n.host = newHostSim(b.sub())
	for i := range numGPUs {
		work := gpuWork{rng: b.sub(), noise: span{relNoiseMin, relNoiseMax}.draw(rng)}
		n.gpus = append(n.gpus, &gpuSim{index: i, cfg: b.defaultConfig(), rng: b.sub(), work: work})
	}
	return b
}

// sub is an independent random stream for one component, so that adding
// noise to one signal does not shift every other.
func (b *builder) sub() *rand.Rand { return rand.New(rand.NewPCG(b.rng.Uint64(), b.rng.Uint64())) }

// defaultConfig is a healthy H200 in a cool data hall (inlet
// 24-30 °C and 0.062-0.068 °C/W give 60-72 °C under a training load).
func (b *builder) defaultConfig() gpuConfig {
	r := b.rng
	return gpuConfig{
		powerLimit: powerLimitDefault,
		idleWatts:  73 + 9*r.Float64(),
		inlet:      24 + 6*r.Float64(),
		rth:        0.062 + 0.006*r.Float64(),
		tau:        20 + 15*r.Float64(),
		genCap:     pcieGenMax,
		widthCap:   pcieWidthMax,
	}
}

// finish puts each GPU at its idle temperature before the warm-up and
// settles the host.
func (b *builder) finish() {
	for _, g := range b.n.gpus {
		g.temp = g.cfg.inlet + g.cfg.rth*g.cfg.idleWatts
		g.memTemp = g.temp + memTempOffset
		g.smClock = smClockIdle
		g.nextReplay = -float64(warmupSteps) * stepSecs
	}
	b.n.host.settle()
}

func (b *builder) pid() int {
	b.nextPID += 1 + b.rng.IntN(40)
	return b.nextPID
}

func numaOf(gpu int) int { return gpu / (numGPUs / 2) }

// ago is a start time some minutes before the node's start.
func (b *builder) ago(minutes span) time.Time {
	// /proc keeps start times in clock ticks; whole seconds look like ps.
	return b.n.start.Add(-time.Duration(minutes.draw(b.rng) * float64(time.Minute))).Truncate(time.Second)
}

// procSpec describes a host process to add.
type procSpec struct {
	parent  *hostProc // nil: a child of a shell
	user    string
	name    string
	cmdline string
	numa    int
	cpu     span // percent of one core
	threads int
	rssGiB  span
	start   time.Time
	dProb   float64
}

func (b *builder) proc(s procSpec) *hostProc {
	hp := &hostProc{target: s.cpu.draw(b.rng), dProb: s.dProb, state: "S"}
	// A few percent, like top's refreshes; a saturated process
	// sits at its ceiling and barely moves.
	hp.jitter = max(0.1, 0.04*hp.target)
	if hp.target >= 80 {
		hp.jitter = 1
	}
	b.nextShell += 1 + b.rng.IntN(50)
	ppid := b.nextShell // the user's shell or sshd session: one per job
	if s.parent != nil {
		ppid = s.parent.p.PID
	}
	hp.p = sampler.Proc{
		PID: b.pid(), PPID: ppid, User: s.user, Name: s.name, Cmdline: s.cmdline,
		RSS: sampler.Some(float64(int64(s.rssGiB.draw(b.rng)*gib) &^ 4095)), Threads: s.threads, Start: s.start,
	}
	if s.parent != nil {
		s.parent.p.Children = append(s.parent.p.Children, hp.p.PID)
	}
	hp.core = b.nextCore[s.numa]
	b.nextCore[s.numa]++
	if b.nextCore[s.numa] >= (s.numa+1)*coresPerSocket {
		b.nextCore[s.numa] = s.numa * coresPerSocket
	}
	b.n.host.procs = append(b.n.host.procs, hp)
	return hp
}

// workers adds n DataLoader workers to parent: forked copies of it, with the
// same command line, as PyTorch's workers are.
func (b *builder) workers(parent *hostProc, numa, n int, cpu span, dProb float64) {
	for range n {
		b.proc(procSpec{parent: parent, user: parent.p.User, name: parent.p.Name, cmdline: parent.p.Cmdline,
			numa: numa, cpu: cpu, threads: 4, rssGiB: span{2, 5},
			start: parent.p.Start.Add(time.Duration(20+b.rng.IntN(40)) * time.Second), dProb: dProb})
	}
}

// attach puts hp on gpu holding memGiB and share of the GPU's busy time.
func (b *builder) attach(gpu int, hp *hostProc, memGiB, share float64) *gpuProc {
	gp := &gpuProc{pid: hp.p.PID, mem: memGiB * gib, share: share,
		start: hp.p.Start.Sub(b.n.start).Seconds() + 5 + 10*b.rng.Float64()} // CUDA init and model load
	w := &b.n.gpus[gpu].work
	w.procs = append(w.procs, gp)
	return gp
}

// run gives gpus the cycle c; levels(gpu) is each GPU's level per phase.
func (b *builder) run(gpus []int, c *cycle, levels func(gpu int) []level) {
	b.n.cycles = append(b.n.cycles, c)
	for _, g := range gpus {
		w := &b.n.gpus[g].work
		w.cycle, w.levels = c, levels(g)
	}
}

// jobLevels are the cycle's own levels, the same on every rank.
func jobLevels(c *cycle) func(int) []level {
	return func(int) []level {
		l := make([]level, len(c.phases))
		for i, p := range c.phases {
			l[i] = p.lvl
		}
		return l
	}
}

// trainOpts shapes a training job's host side.
type trainOpts struct {
	user, config       string
	script             string  // "train.py" when empty
	share              float64 // of the GPU's busy time; 1 when zero
	mainCPU, workerCPU span
	workers            int
	workerD            float64
	memGiB             span
}

// trainer adds `python train.py` on gpu running cycle c.
func (b *builder) trainer(gpu int, o trainOpts, c *cycle) *hostProc {
	script, share := o.script, o.share
	if script == "" {
		script = "train.py"
	}
	if share == 0 {
		share = 1
	}
	main := b.proc(procSpec{user: o.user, name: "python", cmdline: "python " + script + " --config " + o.config,
		numa: numaOf(gpu), cpu: o.mainCPU, threads: 60 + b.rng.IntN(40), rssGiB: span{8, 20}, start: b.ago(span{8, 240})})
	b.workers(main, numaOf(gpu), o.workers, o.workerCPU, o.workerD)
	b.attach(gpu, main, o.memGiB.draw(b.rng), share)
	if c != nil {
		b.run([]int{gpu}, c, jobLevels(c))
	}
	return main
}

// torchrun adds one torchrun launcher with a rank on each of gpus, all on the
// cycle c; levels gives each rank's view of the job.
func (b *builder) torchrun(gpus []int, o trainOpts, c *cycle, levels func(int) []level) {
	start := b.ago(span{10, 600})
	launcher := b.proc(procSpec{user: o.user, name: "torchrun",
		cmdline: fmt.Sprintf("/usr/bin/python3 /usr/local/bin/torchrun --nproc_per_node=%d train.py --config %s", len(gpus), o.config),
		numa:    0, cpu: span{0.3, 1.5}, threads: 6, rssGiB: span{0.3, 0.6}, start: start})
	for _, g := range gpus {
		rank := b.proc(procSpec{parent: launcher, user: o.user, name: "python",
			cmdline: "/usr/bin/python3 -u train.py --config " + o.config, numa: numaOf(g), cpu: o.mainCPU,
			threads: 80 + b.rng.IntN(40), rssGiB: span{12, 24}, start: start.Add(2 * time.Second)})
		b.workers(rank, numaOf(g), o.workers, o.workerCPU, o.workerD)
		b.attach(g, rank, o.memGiB.draw(b.rng), 1)
	}
	b.run(gpus, c, levels)
}

func allGPUs() []int { return []int{0, 1, 2, 3, 4, 5, 6, 7} }
