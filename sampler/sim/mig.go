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
	for k, p := range procs {
		d := &g.MIGDevices[k%len(g.MIGDevices)]
		p.SMUtil, p.MemUtil = sampler.NA, sampler.NA
		d.Procs = append(d.Procs, p)
		d.MemUsed = sampler.Some(d.MemUsed.V + p.MemUsed.Or(0))
		// The instances run the same service at the same load: each shows
		// the GPU's activity, which GPM measures per instance.
		d.SMActive, d.TensorActive, d.DRAMActive = sm, tensor, dram
	}
	for i := range procs {
		procs[i].SMUtil, procs[i].MemUtil = sampler.NA, sampler.NA
	}
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
