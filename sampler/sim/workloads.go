package sim

import "math/rand/v2"

// level is what the kernels on one GPU do during one phase of a workload.
// Activities are fractions 0..1 (the GPM metrics divided by 100); rates are
// bytes per second.
type level struct {
	Busy   float64 // share of time some kernel runs: GPU-Util
	SM     float64 // SM active
	Occ    float64 // SM occupancy
	Tensor float64 // tensor pipes active
	DRAM   float64 // DRAM bandwidth in use
	PCIeRx float64
	PCIeTx float64
	NVLink float64 // each direction
	Enc    float64 // NVENC busy (not part of GPU-Util, which counts kernels)
	Dec    float64 // NVDEC busy
}

// span is a range drawn from uniformly.
type span struct{ lo, hi float64 }

func (s span) draw(r *rand.Rand) float64 { return s.lo + (s.hi-s.lo)*r.Float64() }

// phase is one stretch of a workload's cycle: a training step's compute, its
// all-reduce, a data-loading wait, a burst of requests.
type phase struct {
	dur span // seconds
	lvl level
}

// cycle is the phase clock of one job. The ranks of a collective job share it,
// so they move in lockstep as NCCL ranks do.
type cycle struct {
	phases []phase
	idx    int
	left   float64 // seconds left in the current phase
	rng    *rand.Rand
}

func newCycle(r *rand.Rand, phases ...phase) *cycle {
	c := &cycle{phases: phases, rng: r}
	c.idx = r.IntN(len(phases))
	c.left = c.phases[c.idx].dur.draw(r) * r.Float64() // random phase offset
	return c
}

func (c *cycle) step(dt float64) {
	c.left -= dt
	for c.left <= 0 {
		c.idx = (c.idx + 1) % len(c.phases)
		c.left += c.phases[c.idx].dur.draw(c.rng)
	}
}

// gpuProc is a process holding memory (and SM time) on one GPU.
type gpuProc struct {
	pid   int
	mem   float64 // bytes once the allocator has warmed up
	start float64 // seconds relative to the node's start (negative: before)
	share float64 // share of the GPU's busy time this process gets
	// grow and memCap model a slow leak or a growing cache (memory_pressure).
	grow   float64 // bytes per second after the node's start
	memCap float64
}

// Memory figures, from the H200 datasheet via docs/scenarios.md.
const (
	mib         = 1 << 20
	gib         = 1 << 30
	memTotal    = 143771 * mib // 141 GB HBM3e as NVML reports it
	driverMem   = 4 * mib      // what NVML reports used with no process (as on idle Hopper boards)
	memReserved = 576 * mib    // the driver's own reserve (memory info v2), our choice for an H200
	contextMem  = 512 * mib    // CUDA context per process (typical for CUDA 12)
	allocChunk  = 2 * mib      // PyTorch's caching allocator rounds to 2 MiB blocks
	rampSeconds = 6.0          // model load and first batches fill memory in seconds
	growChunk   = 512 * mib    // a growing cache allocates whole segments
	relNoiseMin = 0.035        // per-step jitter, relative, drawn per GPU in
	relNoiseMax = 0.06         // [min, max] (looks like real 1 s traces)
	// A slow drift of all activities together: an AR(1) with a 20 s time
	// constant (200 steps) and a ±2% spread (batches differ).
	wanderDecay = 0.995
	wanderStep  = 0.002 // = 0.02·sqrt(1-wanderDecay²)
)

// memAt is the memory a process holds at time t.
func (p *gpuProc) memAt(t float64) float64 {
	age := t - p.start
	if age <= 0 {
		return 0
	}
	m := p.mem * (1 - expNeg(age/rampSeconds))
	if p.grow > 0 && t > 0 {
		extra := float64(int(p.grow*t/growChunk)) * growChunk
		m = min(m+extra, p.memCap)
	}
	return contextMem + float64(int(m/allocChunk))*allocChunk
}

// gpuWork is the workload of one GPU: the job's cycle, this GPU's levels for
// each phase, and the processes on it.
type gpuWork struct {
	cycle  *cycle  // nil: no kernels ever (idle GPU)
	levels []level // per phase of cycle; this rank's own view of the job
	procs  []*gpuProc
	wander float64 // slow relative drift of all activities
	noise  float64 // relative per-step jitter
	rng    *rand.Rand
}

// load returns this step's activity: the phase's level with drift and jitter.
// A zero activity stays zero: an idle phase has no kernels at all.
func (w *gpuWork) load() level {
	if w.cycle == nil {
		return level{}
	}
	l := w.levels[w.cycle.idx]
	w.wander = wanderDecay*w.wander + wanderStep*w.rng.NormFloat64()
	j := func(v float64) float64 {
		if v == 0 {
			return 0
		}
		return max(0, v*(1+w.wander+w.noise*w.rng.NormFloat64()))
	}
	return level{
		Busy: min(1, j(l.Busy)), SM: min(1, j(l.SM)), Occ: min(1, j(l.Occ)),
		Tensor: min(1, j(l.Tensor)), DRAM: min(1, j(l.DRAM)),
		PCIeRx: j(l.PCIeRx), PCIeTx: j(l.PCIeTx), NVLink: j(l.NVLink),
		Enc: min(1, j(l.Enc)), Dec: min(1, j(l.Dec)),
	}
}

// memUsed is the GPU's used memory at time t.
func (w *gpuWork) memUsed(t float64) float64 {
	m := float64(driverMem)
	for _, p := range w.procs {
		m += p.memAt(t)
	}
	return min(m, memTotal)
}
