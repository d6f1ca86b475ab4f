package sim

import (
	"github.com/gpuscope/gpuscope/sampler"
)

// splitMIG turns a GPU's truth into a MIG-enabled one: device-level and
// per-process utilisation become n/a (NVML does not report them under MIG),
// and each process runs in its own instance, whose memory and GPM activity
// are its share of the GPU's.
func splitMIG(g *sampler.GPU, m migSetup) {
	procs := g.Procs
	sm, tensor, dram := g.SMActive, g.TensorActive, g.DRAMActive
	EnableMIG(g, m.profile, m.n)
	w := instanceLoads(procs, len(g.MIGDevices))
	for k, p := range procs {
		d := &g.MIGDevices[k%len(g.MIGDevices)]
		p.SMUtil, p.MemUtil = sampler.NA, sampler.NA
		d.Procs = append(d.Procs, p)
		d.MemUsed = sampler.Some(d.MemUsed.V + p.MemUsed.Or(0))
	}
	// GPM measures each instance on its own slices: each shows its own
	// service's load, and the GPU's figure is their mean (equal slices).
	for i := range g.MIGDevices {
		d := &g.MIGDevices[i]
		d.SMActive, d.TensorActive, d.DRAMActive = scaled(sm, w[i]), scaled(tensor, w[i]), scaled(dram, w[i])
	}
	for i := range procs {
		procs[i].SMUtil, procs[i].MemUtil = sampler.NA, sampler.NA
	}
}

// instanceLoads are the instances' loads relative to the GPU's mean (they
// average 1 over all n instances; an empty one is 0). The services behind
// one node see different traffic: popularity spread evenly
// from half to one and a half times the mean across the instances (in
// no index order), times
// each process's own tick-to-tick variation (its per-process SM utilisation
// before MIG hides it), so the instances differ and move independently.
func instanceLoads(procs []sampler.GPUProc, n int) []float64 {
	w := make([]float64, n)
	var procMean float64
	for _, p := range procs {
		procMean += p.SMUtil.Or(0) / float64(len(procs))
	}
	for k, p := range procs {
		i := k % n
		pop := 1.0
		if n > 1 {
			pop = 0.5 + float64(i*3%n)/float64(n-1) // shuffled, not rising with the index
		}
		ratio := 1.0
		if procMean > 0 && p.SMUtil.OK {
			ratio = p.SMUtil.V / procMean
		}
		w[i] += pop * ratio
	}
	var sum float64
	for _, x := range w {
		sum += x
	}
	for i := range w {
		if sum > 0 {
			w[i] *= float64(n) / sum
		}
	}
	return w
}

// scaled is m times w, capped at 100 %; n/a stays n/a.
func scaled(m sampler.Metric, w float64) sampler.Metric {
	if !m.OK {
		return m
	}
	return sampler.Some(min(100, m.V*w))
}

// buildMIG: GPU 0 is split into seven 1g.18gb instances, each serving one
// small model; GPUs 1-7 are idle. The dashboard lists the instances and the
// rules stay quiet about GPU 0, whose device-level utilisation is n/a.
func buildMIG(b *builder) {
	for i := 0; i < 7; i++ {
		o := trainOpts{user: "svc-infer", script: "serve.py", config: "cfg/bert-base-int8.yaml",
			mainCPU: span{15, 35}, workerCPU: span{5, 10}, workers: 1, memGiB: span{9, 14}, share: 1.0 / 7}
		b.trainer(0, o, nil)
	}
	c := newCycle(b.sub(), phase{dur: span{1, 1}, lvl: level{Busy: 0.9, SM: 0.55, Occ: 0.3, Tensor: 0.35, DRAM: 0.3, PCIeRx: 2e8, PCIeTx: 5e7}})
	b.run([]int{0}, c, jobLevels(c))
	b.n.gpus[0].cfg.mig = migSetup{profile: "1g.18gb", n: 7}
}
