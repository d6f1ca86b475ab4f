package sim

import "math/rand/v2"

// Workload presets: the phases of each kind of job, with the levels the
// docs/scenarios.md gives for it. Each draws its own variation from r, so
// seeds vary period, phase and intensity.

// trainPhases is a dense mixed-precision training step: compute, then the
// gradient all-reduce tail (NVLink traffic when the job spans GPUs). Steps
// last 0.3-2 s (docs/scenarios.md).
func trainPhases(r *rand.Rand, nvlink bool) []phase {
	period := span{0.3, 2}.draw(r)
	bus := 0.0
	if nvlink {
		bus = 1
	}
	return []phase{
		{dur: span{0.9 * period * 0.95, 0.9 * period * 1.05}, lvl: level{
			Busy: 0.995, SM: span{0.80, 0.86}.draw(r), Occ: 0.42, Tensor: span{0.52, 0.62}.draw(r),
			DRAM: span{0.34, 0.46}.draw(r), PCIeRx: 6e7, PCIeTx: 5e6, NVLink: bus * 4e10}},
		{dur: span{0.1 * period * 0.9, 0.1 * period * 1.1}, lvl: level{
			Busy: 0.97, SM: 0.55, Occ: 0.25, Tensor: 0.15, DRAM: 0.35, PCIeRx: 1e7, PCIeTx: 2e6, NVLink: bus * 2.2e11}},
	}
}

// fp32Phases is a training step in plain FP32: the SMs are busy but the
// tensor cores idle (TF32/AMP off).
func fp32Phases(r *rand.Rand) []phase {
	p := trainPhases(r, false)
	p[0].lvl.SM, p[0].lvl.Tensor, p[0].lvl.DRAM = span{0.72, 0.88}.draw(r), span{0.005, 0.025}.draw(r), span{0.22, 0.38}.draw(r)
	p[1].lvl.Tensor = 0.005
	return p
}

// heavyPhases is a large transformer step that would draw more than 700 W
// at full clock: what a lowered power limit bites on.
func heavyPhases(r *rand.Rand) []phase {
	p := trainPhases(r, false)
	p[0].lvl.SM, p[0].lvl.Tensor, p[0].lvl.DRAM = span{0.88, 0.93}.draw(r), span{0.72, 0.80}.draw(r), span{0.45, 0.55}.draw(r)
	p[1].lvl.SM, p[1].lvl.Tensor, p[1].lvl.DRAM = 0.6, 0.3, 0.4
	return p
}

// starvedPhases: the GPU waits for the next batch, then computes it:
// busy 1-2 s, idle 1-3 s.
func starvedPhases(r *rand.Rand) []phase {
	return []phase{
		{dur: span{1, 2}, lvl: level{Busy: 1, SM: span{0.76, 0.84}.draw(r), Occ: 0.45, Tensor: span{0.5, 0.6}.draw(r),
			DRAM: 0.4, PCIeRx: 2e9, PCIeTx: 1e7}},
		{dur: span{1, 3}},
	}
}

// ioPhases: short bursts of compute between long waits for the disk; mean
// util 15-35%.
func ioPhases(r *rand.Rand) []phase {
	return []phase{
		{dur: span{0.4, 1.2}, lvl: level{Busy: 0.95, SM: 0.72, Occ: 0.4, Tensor: 0.5, DRAM: 0.38, PCIeRx: 1.5e9, PCIeTx: 1e7}},
		{dur: span{1.5, 3.5}},
	}
}

// launchPhases: a stream of tiny kernels, one after another; the GPU is
// "busy" but each kernel fills a sliver of the SMs.
func launchPhases(r *rand.Rand) []phase {
	return []phase{{dur: span{1, 1}, lvl: level{
		Busy: span{0.90, 0.96}.draw(r), SM: span{0.18, 0.27}.draw(r), Occ: 0.06, Tensor: span{0.01, 0.025}.draw(r),
		DRAM: span{0.06, 0.09}.draw(r), PCIeRx: 3e7, PCIeTx: 3e6}}}
}

// syncPhases: regular stalls where the host waits on the GPU (.item(),
// logging, a cuda synchronize): every 3.5-5 s a dip to 10-30%. The dip
// lasts 1.3-1.6 s so that a 1 s utilisation sample always catches most of
// it (a shorter dip straddling two samples reads ~50%).
func syncPhases(r *rand.Rand) []phase {
	period := span{3.5, 5}.draw(r)
	dip := span{1.3, 1.6}.draw(r)
	return []phase{
		{dur: span{period - dip, period - dip}, lvl: level{Busy: span{0.82, 0.88}.draw(r), SM: 0.55, Occ: 0.35, Tensor: 0.35, DRAM: 0.3, PCIeRx: 5e7, PCIeTx: 5e6}},
		{dur: span{dip, dip}, lvl: level{Busy: 0.15, SM: 0.04, Occ: 0.03, Tensor: 0.02, DRAM: 0.05, PCIeRx: 1e7, PCIeTx: 1e6}},
	}
}

// copyPhases: host-to-device copies (pageable memory, no overlap) alternate
// with compute.
func copyPhases(r *rand.Rand) []phase {
	rx := span{22e9, 40e9}.draw(r)
	return []phase{
		{dur: span{1.2, 2.2}, lvl: level{Busy: 0.3, SM: 0.2, Occ: 0.1, Tensor: 0.05, DRAM: 0.12, PCIeRx: rx, PCIeTx: 1.5e9}},
		{dur: span{0.5, 1}, lvl: level{Busy: 0.95, SM: 0.6, Occ: 0.4, Tensor: 0.4, DRAM: 0.3, PCIeRx: 3e8, PCIeTx: 1e7}},
	}
}

// memBoundPhases: bandwidth-bound kernels (embeddings, elementwise ops):
// DRAM near its practical peak, SMs half used.
func memBoundPhases(r *rand.Rand) []phase {
	return []phase{{dur: span{1, 1}, lvl: level{
		Busy: 0.995, SM: span{0.50, 0.62}.draw(r), Occ: 0.7, Tensor: span{0.01, 0.04}.draw(r),
		DRAM: span{0.86, 0.93}.draw(r), PCIeRx: 4e7, PCIeTx: 4e6}}}
}

// holderPhases: nothing runs; once every two to four minutes a cell runs a
// tiny kernel (a blip of at most 5%).
func holderPhases() []phase {
	return []phase{
		{dur: span{100, 220}},
		{dur: span{1, 1}, lvl: level{Busy: 0.04, SM: 0.02, Occ: 0.01, DRAM: 0.01, PCIeRx: 1e6}},
	}
}

// servingPhases: requests arrive in bursts; each burst is a few decode
// batches (memory-bound), then the server waits.
func servingPhases(r *rand.Rand) []phase {
	return []phase{
		{dur: span{0.5, 3}},
		{dur: span{0.3, 1.2}, lvl: level{Busy: span{0.8, 0.9}.draw(r), SM: 0.35, Occ: 0.2, Tensor: 0.2, DRAM: 0.55, PCIeRx: 5e7, PCIeTx: 2e7}},
	}
}

// sharedPhases: several processes time-slice one GPU; together they keep it
// busy ~95% of the time.
func sharedPhases(r *rand.Rand, sm float64) []phase {
	return []phase{{dur: span{1, 1}, lvl: level{Busy: 0.95, SM: sm, Occ: 0.4, Tensor: span{0.3, 0.5}.draw(r), DRAM: 0.4, PCIeRx: 1e8, PCIeTx: 1e7}}}
}

// commPhases: ranks whose all-reduce crosses PCIe and the host bridge: long
// communication dips, in lockstep on every rank.
func commPhases(r *rand.Rand) []phase {
	bw := span{11e9, 24e9}.draw(r)
	return []phase{
		{dur: span{1, 2}, lvl: level{Busy: 0.97, SM: 0.75, Occ: 0.4, Tensor: 0.5, DRAM: 0.4, PCIeRx: 2e8, PCIeTx: 2e8}},
		{dur: span{1.5, 3}, lvl: level{Busy: 0.15, SM: 0.05, Occ: 0.03, DRAM: 0.06, PCIeRx: bw, PCIeTx: bw}},
	}
}
