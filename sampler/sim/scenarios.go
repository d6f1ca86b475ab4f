package sim

// scenarioSpec is one entry of the scenario table.
type scenarioSpec struct {
	id, summary string
	build       func(b *builder)
}

// scenarioTable follows docs/scenarios.md: healthy, mixed, then one
// scenario per diagnosis rule, each putting its problem on GPU 0 (all GPUs
// for node-level rules) and leaving the other GPUs idle with no process.
func scenarioTable() []scenarioSpec {
	return []scenarioSpec{
		{"healthy", "8-rank torchrun training, every GPU busy", buildHealthy},
		{"mixed", "a shared node: eight GPUs in eight different states", buildMixed},
		{"input_starved", "GPU 0 waits on a data pipeline bound to the training process's CPU", buildInputStarved},
		{"io_bound", "GPU 0 waits while DataLoader workers block on disk reads", buildIOBound},
		{"launch_bound", "GPU 0 is 'busy' with tiny kernels: high util, low SM activity", buildLaunchBound},
		{"sync_stall", "GPU 0 dips regularly while the host synchronizes", buildSyncStall},
		{"copy_bound", "GPU 0 alternates large host-to-device copies with compute", buildCopyBound},
		{"memory_bandwidth_bound", "GPU 0 runs bandwidth-bound kernels near the HBM peak", buildMemBound},
		{"tensor_cores_idle", "GPU 0 trains in FP32: SMs busy, tensor cores idle", buildTensorIdle},
		{"memory_idle_held", "a notebook kernel holds GPU 0's memory and computes nothing", buildMemoryHeld},
		{"allocated_idle", "a Slurm job holds GPUs 0-1 with no process on them; a 6-rank job trains on GPUs 2-7", buildAllocatedIdle},
		{"memory_pressure", "GPU 0's memory is 96-99% full and creeping", buildMemoryPressure},
		{"load_imbalance", "three jobs share GPU 0 while GPUs 1-7 sit empty", buildLoadImbalance},
		{"straggler", "8-rank job where GPU 5 is slow and the others wait in NCCL", buildStraggler},
		{"comm_bound", "8-rank job on PCIe-only GPUs: all ranks dip together in all-reduce", buildCommBound},
		{"gpu_contention", "three users' processes time-slice GPU 0; GPUs 1-7 run one job each", buildContention},
		{"power_capped", "GPU 0's power limit is set to 450 W", buildPowerCapped},
		{"thermal_throttle", "GPU 0 overheats and throttles (cooling fault)", buildThermal},
		{"pcie_link_degraded", "GPU 0's PCIe link trains below Gen5 x16 under load", buildPCIeDegraded},
		{"pcie_errors", "GPU 0's PCIe link retries (replay counter rising)", buildPCIeErrors},
		{"xid_error", "GPU 0 reports Xid errors", buildXid},
		{"ecc_errors", "GPU 0 has uncorrectable ECC errors and a row remap pending", buildECC},
		{"serving_underfilled", "an inference server on GPU 0 sees few requests", buildServing},
		{"mig", "GPU 0 split into seven 1g.18gb MIG instances, one small model server each", buildMIG},
	}
}

func findScenario(id string) (scenarioSpec, bool) {
	for _, s := range scenarioTable() {
		if s.id == id {
			return s, true
		}
	}
	return findLookalike(id)
}

// trainingHost is the host side of a well-fed training process: 8 workers
// at 20-60% each, the main process at 60-90% (docs/scenarios.md, healthy).
func trainingHost(user, config string) trainOpts {
	return trainOpts{user: user, config: config, mainCPU: span{62, 88}, workerCPU: span{22, 58}, workers: 8, memGiB: span{60, 110}}
}

func buildHealthy(b *builder) {
	o := trainingHost("alice", "cfg/llama3-8b.yaml")
	c := newCycle(b.sub(), trainPhases(b.rng, true)...)
	b.torchrun(allGPUs(), o, c, jobLevels(c))
	b.n.host.diskMean = span{2e8, 5e8}.draw(b.rng) // dataset shards streamed from local NVMe
}

func healthyTrainer(b *builder, gpu int, user string) {
	b.trainer(gpu, trainingHost(user, "cfg/resnet50.yaml"), newCycle(b.sub(), trainPhases(b.rng, false)...))
}

// starvedTrainer: num_workers=0, so the training process decodes and
// augments every batch on its own core; variant: two workers on a host whose
// cores are all taken.
func starvedTrainer(b *builder, gpu int, saturatedHost bool) {
	o := trainOpts{user: "bob", config: "cfg/vit-b16.yaml", mainCPU: span{96, 99.5}, memGiB: span{20, 40}}
	if saturatedHost {
		o.mainCPU, o.workers, o.workerCPU = span{35, 60}, 2, span{98, 100}
		b.n.host.setBackground(span{93, 98})
	}
	b.trainer(gpu, o, newCycle(b.sub(), starvedPhases(b.rng)...))
}

func buildInputStarved(b *builder) { starvedTrainer(b, 0, b.rng.IntN(3) == 0) }

func buildIOBound(b *builder) {
	o := trainOpts{user: "carol", config: "cfg/vit-l-imagenet.yaml", mainCPU: span{22, 38}, workerCPU: span{2, 8},
		workers: 4 + b.rng.IntN(5), workerD: 0.75, memGiB: span{30, 60}}
	b.trainer(0, o, newCycle(b.sub(), ioPhases(b.rng)...))
	h := b.n.host
	h.iowaitMean = span{28, 50}.draw(b.rng)
	h.diskMean = span{1.6e9, 2.8e9}.draw(b.rng)
}

func launchBound(b *builder, gpu int) {
	o := trainOpts{user: "dave", config: "cfg/gnn-small.yaml", mainCPU: span{97, 100}, workerCPU: span{8, 12}, workers: 4, memGiB: span{6, 14}}
	b.trainer(gpu, o, newCycle(b.sub(), launchPhases(b.rng)...))
}

func buildLaunchBound(b *builder) { launchBound(b, 0) }

func buildSyncStall(b *builder) {
	o := trainOpts{user: "alice", config: "cfg/bert-large.yaml", mainCPU: span{40, 70}, workerCPU: span{20, 40},
		workers: 4 + b.rng.IntN(5), memGiB: span{30, 60}}
	b.trainer(0, o, newCycle(b.sub(), syncPhases(b.rng)...))
}

func buildCopyBound(b *builder) {
	o := trainOpts{user: "bob", config: "cfg/unet3d.yaml", mainCPU: span{40, 70}, workerCPU: span{15, 35}, workers: 4, memGiB: span{20, 50}}
	b.trainer(0, o, newCycle(b.sub(), copyPhases(b.rng)...))
}

func memBound(b *builder, gpu int) {
	o := trainOpts{user: "erin", config: "cfg/dlrm.yaml", mainCPU: span{50, 80}, workerCPU: span{20, 40}, workers: 4, memGiB: span{80, 120}}
	b.trainer(gpu, o, newCycle(b.sub(), memBoundPhases(b.rng)...))
}

func buildMemBound(b *builder) { memBound(b, 0) }

func buildTensorIdle(b *builder) {
	o := trainingHost("carol", "cfg/resnet50-fp32.yaml")
	b.trainer(0, o, newCycle(b.sub(), fp32Phases(b.rng)...))
}

func buildMemoryPressure(b *builder) {
	o := trainingHost("alice", "cfg/llama3-8b-fullft.yaml")
	o.workers = 6
	b.trainer(0, o, newCycle(b.sub(), trainPhases(b.rng, false)...))
	gp := b.n.gpus[0].work.procs[0]
	// 96% full at the start, creeping ~3 points over the next minutes up to 99%.
	gp.mem = 0.96*memTotal - contextMem - driverMem
	gp.grow = span{0.02, 0.035}.draw(b.rng) * memTotal / 180
	gp.memCap = 0.99*memTotal - contextMem - driverMem
}

func buildLoadImbalance(b *builder) {
	users := []string{"alice", "bob", "dave"}
	cfgs := []string{"cfg/resnet50.yaml", "cfg/bert-base.yaml", "cfg/yolov8.yaml"}
	for i, u := range users {
		o := trainOpts{user: u, config: cfgs[i], mainCPU: span{50, 80}, workerCPU: span{20, 50}, workers: 4,
			memGiB: span{0.8 * memTotal / gib / 3 * 0.97, 0.8 * memTotal / gib / 3}, share: 0.31 + 0.04*b.rng.Float64()}
		b.trainer(0, o, nil)
	}
	c := newCycle(b.sub(), phase{dur: span{1, 1}, lvl: level{Busy: 0.995, SM: 0.85, Occ: 0.5, Tensor: 0.5, DRAM: 0.45, PCIeRx: 1e8, PCIeTx: 1e7}})
	b.run([]int{0}, c, jobLevels(c))
}

// buildStraggler: GPU 5 is the slow rank; the others finish first and spin
// in NCCL kernels (util high, SMs nearly idle) until it catches up.
func buildStraggler(b *builder) {
	const slow = 5
	c := newCycle(b.sub(), trainPhases(b.rng, true)...)
	waitSM := span{0.17, 0.27}.draw(b.rng)
	levels := func(g int) []level {
		l := jobLevels(c)(g)
		if g == slow {
			l[0].SM, l[0].Tensor = span{0.88, 0.94}.draw(b.rng), 0.62
			l[1].SM = 0.8
			return l
		}
		for i := range l {
			l[i].Busy, l[i].SM, l[i].Occ, l[i].Tensor, l[i].DRAM = 0.975, waitSM, 0.1, 0.06, 0.1
		}
		return l
	}
	b.torchrun(allGPUs(), trainingHost("bob", "cfg/llama3-70b-lora.yaml"), c, levels)
}

func buildCommBound(b *builder) {
	b.n.pcieOnly = true
	c := newCycle(b.sub(), commPhases(b.rng)...)
	b.torchrun(allGPUs(), trainingHost("dave", "cfg/gpt2-xl.yaml"), c, jobLevels(c))
}

func buildContention(b *builder) {
	users := []string{"alice", "bob", "carol"}
	scripts := []string{"train.py", "finetune.py", "sweep.py"}
	shares := []float64{0.30, 0.33, 0.37}
	for i, u := range users {
		o := trainOpts{user: u, config: "cfg/exp" + string(rune('a'+i)) + ".yaml", script: scripts[i], mainCPU: span{30, 60},
			workerCPU: span{15, 35}, workers: 2, memGiB: span{12, 30}, share: shares[i]}
		b.trainer(0, o, nil)
	}
	c := newCycle(b.sub(), sharedPhases(b.rng, 0.6)...)
	b.run([]int{0}, c, jobLevels(c))
	// The rest of the node is busy with one job per GPU: the problem is the
	// sharing on GPU 0, not a node where everything sits on one card (that is
	// load_imbalance).
	for g, u := range []string{"dave", "erin", "frank", "grace", "heidi", "ivan", "judy"} {
		healthyTrainer(b, g+1, u)
	}
}
