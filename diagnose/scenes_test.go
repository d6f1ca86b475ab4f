package diagnose

import (
	"math/rand/v2"

	"github.com/gpuscope/gpuscope/sampler"
)

// Scenes for GPU 0 of the rule tests, after docs/scenarios.md. Each takes
// knobs so a test can build the near miss.

// starvedUtil alternates busy (1-2 s) and idle (1-3 s) phases.
type burstPattern struct{ busyLeft, idleLeft int }

func (b *burstPattern) next(r *rand.Rand) bool {
	if b.busyLeft == 0 && b.idleLeft == 0 {
		b.busyLeft, b.idleLeft = 1+r.IntN(2), 1+r.IntN(3)
	}
	if b.busyLeft > 0 {
		b.busyLeft--
		return true
	}
	b.idleLeft--
	return false
}

func setBursty(r *rand.Rand, g *sampler.GPU, on bool) {
	busy(r, g)
	if !on {
		g.Util = sampler.Some(between(r, 0, 4))
		g.SMActive = sampler.Some(between(r, 0, 3))
		g.TensorActive = sampler.Some(0)
		g.DRAMActive = sampler.Some(between(r, 0, 2))
		g.Power = sampler.Some(between(r, 120, 160))
	}
}

// inputStarved: bursty GPU 0; the main process at mainCPU with workers
// workers at workerCPU each.
func inputStarved(mainCPU float64, workers int, workerCPU float64) scene {
	var b burstPattern
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		setBursty(r, &s.GPUs[0], b.next(r))
		hp := attach(s, 0, proc{pid: 4121, ppid: 900, cmd: "python train.py", user: "ana", cpu: mainCPU - between(r, 0, 4), mem: 40e9})
		for k := range workers {
			addWorker(s, hp, 4200+k, workerCPU-between(r, 0, 4), "R")
		}
	}
}

// ioBound: low bursty util, workers in D, host iowait iowait.
func ioBound(iowait float64, state string) scene {
	var b burstPattern
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		on := b.next(r) && r.IntN(3) == 0
		setBursty(r, &s.GPUs[0], on)
		hp := attach(s, 0, proc{pid: 4121, ppid: 900, cmd: "python train.py", user: "ana", cpu: between(r, 20, 40), mem: 40e9})
		for k := range 6 {
			addWorker(s, hp, 4200+k, between(r, 2, 8), state)
		}
		s.Host.IOWait = sampler.Some(iowait + between(r, -5, 5))
		s.Host.DiskRead = sampler.Some(between(r, 1.5e9, 3e9))
	}
}

// launchBound: steady util with SM active around sm.
func launchBound(sm float64, gpm bool) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		g := &s.GPUs[0]
		busy(r, g)
		g.Util = sampler.Some(between(r, 85, 99))
		g.SMActive = sampler.Some(sm + between(r, -5, 5))
		g.TensorActive = sampler.Some(between(r, 0, 3))
		g.DRAMActive = sampler.Some(between(r, 5, 10))
		g.Power = sampler.Some(between(r, 150, 230))
		if !gpm {
			g.SMActive, g.SMOccupancy, g.TensorActive, g.DRAMActive = sampler.NA, sampler.NA, sampler.NA, sampler.NA
		}
		hp := attach(s, 0, proc{pid: 4121, ppid: 900, cmd: "python train.py", user: "ana", cpu: between(r, 97, 100), mem: 30e9})
		for k := range 4 {
			addWorker(s, hp, 4200+k, between(r, 5, 15), "S")
		}
	}
}

// syncStall: util 55-80 with a dip every period±jitter seconds; mainCPU.
func syncStall(jitter int, mainCPU float64) scene {
	next := 4
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		g := &s.GPUs[0]
		busy(r, g)
		g.Util = sampler.Some(between(r, 60, 80))
		if t == next {
			g.Util = sampler.Some(between(r, 10, 30))
			g.SMActive = sampler.Some(between(r, 5, 15))
			next += 3 + r.IntN(2*jitter+1) // 3-5 s apart when jitter is 1
		}
		hp := attach(s, 0, proc{pid: 4121, ppid: 900, cmd: "python train.py", user: "ana", cpu: mainCPU + between(r, -5, 5), mem: 50e9})
		for k := range 6 {
			addWorker(s, hp, 4200+k, between(r, 20, 40), "S")
		}
		s.Host.CPU = sampler.Some(between(r, 15, 30))
	}
}

// copyBound: two ticks copying (util low, PCIe at copyBytes), two computing.
func copyBound(copyBytes float64) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		g := &s.GPUs[0]
		busy(r, g)
		if t%4 < 2 {
			g.Util = sampler.Some(between(r, 20, 45))
			g.SMActive = sampler.Some(between(r, 10, 30))
			g.PCIeRx = sampler.Some(copyBytes * between(r, 0.8, 1.2))
		} else {
			g.Util = sampler.Some(between(r, 80, 95))
			g.PCIeRx = sampler.Some(between(r, 0.05e9, 0.2e9))
		}
		hp := attach(s, 0, proc{pid: 4121, ppid: 900, cmd: "python train.py", user: "ana", cpu: between(r, 40, 60), mem: 50e9})
		for k := range 4 {
			addWorker(s, hp, 4200+k, between(r, 20, 40), "S")
		}
	}
}

// kernelMix: busy GPU 0 with the given SM, tensor and DRAM levels.
func kernelMix(sm, tensor, dram float64) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		g := &s.GPUs[0]
		busy(r, g)
		g.Util = sampler.Some(between(r, 97, 100))
		g.SMActive = sampler.Some(sm + between(r, -5, 5))
		g.TensorActive = sampler.Some(max(tensor+between(r, -1.5, 1.5), 0))
		g.DRAMActive = sampler.Some(dram + between(r, -5, 5))
		hp := attach(s, 0, proc{pid: 4121, ppid: 900, cmd: "python train.py", user: "ana", cpu: between(r, 60, 80), mem: 60e9})
		for k := range 8 {
			addWorker(s, hp, 4200+k, between(r, 20, 40), "S")
		}
	}
}

// notebook holds held bytes on GPU 0 with util idle (a blip every 50 s).
func notebook(held float64, util float64) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		g := &s.GPUs[0]
		g.Util = sampler.Some(util)
		if t%50 == 25 {
			g.Util = sampler.Some(util + 4)
		}
		g.MemUsed = sampler.Some(held + 0.6e9)
		attach(s, 0, proc{pid: 777, ppid: 700, cmd: "python -m ipykernel_launcher -f kernel.json", user: "bo", cpu: between(r, 0, 1), mem: held})
	}
}

// memoryFull: busy training with memory at frac of total, creeping.
func memoryFull(frac float64) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		healthyRank(0)(t, r, s)
		s.GPUs[0].MemUsed = sampler.Some(h200Mem * (frac + float64(t)*0.0001))
		s.GPUs[0].Procs[0].MemUsed = s.GPUs[0].MemUsed
	}
}

// server is an inference server on GPU 0 at util lo-hi with a CPU-bound
// main loop and no workers (which input_starved would otherwise flag).
func server(cmd string, lo, hi float64) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		g := &s.GPUs[0]
		busy(r, g)
		g.Util = sampler.Some(between(r, lo, hi))
		if t%3 == 0 {
			g.Util = sampler.Some(between(r, 0, 5))
		}
		g.MemUsed = sampler.Some(h200Mem * 0.96)
		attach(s, 0, proc{pid: 3100, ppid: 1, cmd: cmd, user: "svc", cpu: 97, mem: h200Mem * 0.95})
	}
}

// inputStarvedOn replaces GPU gi's load with an input-starved one (for mixes).
func inputStarvedOn(gi int) scene {
	var b burstPattern
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		setBursty(r, &s.GPUs[gi], b.next(r))
		for i := range s.GPUs[gi].Procs {
			s.GPUs[gi].Procs[i].Host.CPU = sampler.Some(99)
			s.GPUs[gi].Procs[i].Host.Children = nil
		}
	}
}
