package sim

// Look-alike scenarios: workloads that resemble a rule's pattern but are not
// that problem (or are another one). The accuracy harness uses them to
// measure false alarms on cases the rules were not written around; they are
// not listed by `--demo=list` but run with `--demo=ID`. Each names in
// Expect the rules that must fire (none for most): the ground truth is the
// workload, not the rules' thresholds.

// LookalikeInfo is one look-alike scenario and the rules it must raise.
type LookalikeInfo struct {
	ID, Summary string
	Expect      []string // rule ids that must fire; every other rule must not
}

type lookalikeSpec struct {
	LookalikeInfo
	build func(b *builder)
}

func lookalikeTable() []lookalikeSpec {
	return []lookalikeSpec{
		{LookalikeInfo{"lookalike_busy_loader", "8 DataLoader workers at 92-100% CPU that keep GPU 0 fed (util ~99%)", nil}, buildBusyLoader},
		{LookalikeInfo{"lookalike_bursty_inference", "an inference server on GPU 0 with short gaps between long request bursts (busy ~85%)", nil}, buildBurstyServer},
		{LookalikeInfo{"lookalike_warm_gpu", "GPU 0 trains at 78-84 °C, below its 90 °C slowdown temperature (and 5 °C margin)", nil}, buildWarmGPU},
		{LookalikeInfo{"lookalike_small_batch_dense", "a small-batch job on GPU 0: Python at ~97% of a core, SMs 70-80% active", nil}, buildSmallBatchDense},
		{LookalikeInfo{"lookalike_two_jobs_quiet", "training on GPU 0 beside another user's idle 4 GiB process (no contention); GPUs 1-7 train too", nil}, buildTwoJobsQuiet},
		{LookalikeInfo{"lookalike_encode_only", "ffmpeg transcodes on GPU 0's NVENC: GPU-Util ~3%, encoder 60-85%, 15-20 GiB held", nil}, buildEncodeOnly},
		{LookalikeInfo{"lookalike_collective_hang", "an 8-rank job hung in a collective: every GPU at 100% GPU-Util, SMs nearly idle, power low", []string{"comm_bound"}}, buildCollectiveHang},
		{LookalikeInfo{"lookalike_cpu_decode_disk", "GPU 0 starved by CPU-bound decoding while the disk streams fast (low iowait)", []string{"input_starved"}}, buildCPUDecodeDisk},
	}
}

// Lookalikes lists the look-alike scenarios.
func Lookalikes() []LookalikeInfo {
	t := lookalikeTable()
	out := make([]LookalikeInfo, len(t))
	for i, s := range t {
		out[i] = s.LookalikeInfo
	}
	return out
}

func findLookalike(id string) (scenarioSpec, bool) {
	for _, s := range lookalikeTable() {
		if s.ID == id {
			return scenarioSpec{id: s.ID, summary: s.Summary, build: s.build}, true
		}
	}
	return scenarioSpec{}, false
}

// buildBusyLoader: heavy augmentation keeps every worker busy, but there are
// enough of them: the GPU never waits (the slow loader is not the bottleneck).
func buildBusyLoader(b *builder) {
	o := trainingHost("alice", "cfg/vit-b16-heavyaug.yaml")
	o.workerCPU, o.mainCPU = span{92, 100}, span{60, 80}
	b.trainer(0, o, newCycle(b.sub(), trainPhases(b.rng, false)...))
}

// buildBurstyServer: requests queue up, so the server is busy most of the
// time with brief irregular gaps: bursty, and healthy.
func buildBurstyServer(b *builder) {
	hp := b.proc(procSpec{user: "svc-infer", name: "vllm", cmdline: "vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.90 --port 8000",
		numa: numaOf(0), cpu: span{45, 70}, threads: 180, rssGiB: span{10, 16}, start: b.ago(span{60, 4000})})
	b.attach(0, hp, span{0.86, 0.91}.draw(b.rng)*memTotal/gib-1, 1)
	c := newCycle(b.sub(),
		phase{dur: span{0.1, 0.5}},
		phase{dur: span{1.5, 5}, lvl: level{Busy: span{0.9, 0.97}.draw(b.rng), SM: 0.55, Occ: 0.3, Tensor: 0.35, DRAM: 0.6, PCIeRx: 5e7, PCIeTx: 2e7}})
	b.run([]int{0}, c, jobLevels(c))
	b.n.host.netMean = span{2e7, 6e7}.draw(b.rng)
}

// buildWarmGPU: a warm hall (inlet 39-41 °C) and a healthy heatsink: the
// GPU runs hot but well below its slowdown temperature, at full clock.
func buildWarmGPU(b *builder) {
	cfg := &b.n.gpus[0].cfg
	cfg.inlet = span{39, 41}.draw(b.rng)
	cfg.rth = span{0.068, 0.071}.draw(b.rng)
	healthyTrainer(b, 0, "frank")
}

// buildSmallBatchDense: small batches, so the Python loop is busy
// launching, but each kernel is large enough to fill the SMs.
func buildSmallBatchDense(b *builder) {
	o := trainOpts{user: "dave", config: "cfg/resnet18-bs16.yaml", mainCPU: span{94, 99}, workerCPU: span{10, 25}, workers: 2, memGiB: span{6, 12}}
	c := newCycle(b.sub(), phase{dur: span{1, 1}, lvl: level{
		Busy: span{0.93, 0.98}.draw(b.rng), SM: span{0.70, 0.80}.draw(b.rng), Occ: 0.3, Tensor: span{0.35, 0.5}.draw(b.rng),
		DRAM: 0.3, PCIeRx: 6e7, PCIeTx: 5e6}})
	b.trainer(0, o, c)
}

// buildTwoJobsQuiet: a training job and another user's process that holds a
// little memory and almost never runs a kernel (a monitoring agent, an idle
// model kept warm): two jobs on one GPU that do not contend. The other
// GPUs are busy, so moving the small process would gain nothing either.
func buildTwoJobsQuiet(b *builder) {
	o := trainingHost("alice", "cfg/llama3-8b.yaml")
	o.share = 0.98
	b.trainer(0, o, newCycle(b.sub(), trainPhases(b.rng, false)...))
	other := b.proc(procSpec{user: "bob", name: "python", cmdline: "python embed_server.py --model bge-small",
		numa: numaOf(0), cpu: span{0.5, 3}, threads: 20, rssGiB: span{2, 3}, start: b.ago(span{30, 300})})
	b.attach(0, other, span{3.5, 4.5}.draw(b.rng), 0.02)
	for g, u := range []string{"dave", "erin", "frank", "grace", "heidi", "ivan", "judy"} {
		healthyTrainer(b, g+1, u)
	}
}

// buildEncodeOnly: a transcoding job with many NVENC sessions: the video
// engines work, kernels hardly run (GPU-Util counts kernels only), and the
// sessions' surfaces hold 15-20 GiB.
func buildEncodeOnly(b *builder) {
	hp := b.proc(procSpec{user: "media", name: "ffmpeg", cmdline: "ffmpeg -hwaccel cuda -i rtmp://ingest/live -c:v h264_nvenc -preset p4 -f hls /srv/hls/out.m3u8",
		numa: numaOf(0), cpu: span{40, 80}, threads: 40, rssGiB: span{1, 2}, start: b.ago(span{10, 600})})
	b.attach(0, hp, span{15, 20}.draw(b.rng), 1)
	c := newCycle(b.sub(), phase{dur: span{1, 1}, lvl: level{
		Busy: span{0.02, 0.05}.draw(b.rng), SM: 0.02, Occ: 0.01, DRAM: 0.05,
		Enc: span{0.6, 0.85}.draw(b.rng), Dec: span{0.3, 0.5}.draw(b.rng), PCIeRx: 3e7, PCIeTx: 2e7}})
	b.run([]int{0}, c, jobLevels(c))
}

// buildCPUDecodeDisk: the starved trainer of input_starved on a host whose
// disk streams the dataset fast and never makes the workers wait: it is
// input_starved (CPU), not io_bound (disk).
func buildCPUDecodeDisk(b *builder) {
	starvedTrainer(b, 0, false)
	h := b.n.host
	h.diskMean = span{1.5e9, 2.5e9}.draw(b.rng)
	h.iowaitMean = span{1, 4}.draw(b.rng)
}

// buildCollectiveHang: a rank never joined an all-reduce, and every rank's
// NCCL kernel spins waiting for it: GPU-Util a flat 100 %, a few SMs
// polling, no traffic, power near idle ([nccl-troubleshooting]). A real node
// shows it; the rule scenarios never did. The kernel never ends, so
// GPU-Util reads a flat 100 (the 8-GPU corpus table in
// sampler/importer/testdata/real): Busy sits above 1 so that the per-step
// jitter does not pull it down.
func buildCollectiveHang(b *builder) {
	c := newCycle(b.sub(), phase{dur: span{5, 5}, lvl: level{Busy: 1.15, SM: span{0.04, 0.1}.draw(b.rng), Occ: 0.02, DRAM: 0.01}})
	b.torchrun(allGPUs(), trainingHost("grace", "cfg/llama3-8b-fsdp.yaml"), c, jobLevels(c))
}
