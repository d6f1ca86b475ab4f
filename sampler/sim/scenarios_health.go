package sim

import (
	"fmt"

	"github.com/gpuscope/gpuscope/sampler"
)

// Scenarios whose problem is the hardware, its settings or its use by
// non-training processes.

func buildPowerCapped(b *builder) {
	b.n.gpus[0].cfg.powerLimit = 450 // an admin ran `nvidia-smi -pl 450`
	b.trainer(0, trainingHost("erin", "cfg/llama3-8b.yaml"), newCycle(b.sub(), heavyPhases(b.rng)...))
}

// hotGPU is a GPU whose cooling fails: hot inlet air that keeps warming and
// a high thermal resistance (clogged heatsink), set so that under a
// training load the thermal governor settles at 88-92 °C with SM clocks of
// 1100-1500 MHz (docs/scenarios.md).
func hotGPU(b *builder, gpu int) {
	cfg := &b.n.gpus[gpu].cfg
	cfg.inlet = span{51, 53}.draw(b.rng)
	cfg.inletRise = 0.03
	cfg.rth = 0.11
	healthyTrainer(b, gpu, "frank")
}

func buildThermal(b *builder) { hotGPU(b, 0) }

func buildPCIeDegraded(b *builder) {
	cfg := &b.n.gpus[0].cfg
	if b.rng.IntN(3) == 0 {
		cfg.widthCap = 8 // a lane group failed to train
	} else {
		cfg.genCap = 3 // a marginal riser or retimer: the link falls back to Gen3
	}
	healthyTrainer(b, 0, "alice")
}

func buildPCIeErrors(b *builder) {
	g := b.n.gpus[0]
	g.cfg.replayRate = span{1.0, 3.3}.draw(b.rng) // 60-200 per minute (docs/scenarios.md)
	g.replays = float64(200 + b.rng.IntN(4000))   // cumulative since boot
	healthyTrainer(b, 0, "bob")
}

// buildXid: a few Xids during the run, in one of three stories: an
// application's illegal access (13, then 43 when it is killed), MMU faults
// (31), or a double-bit ECC error (48) followed by a pending row remap (63).
func buildXid(b *builder) {
	cfg := &b.n.gpus[0].cfg
	at := func(lo, hi float64) float64 { return span{lo, hi}.draw(b.rng) }
	switch b.rng.IntN(3) {
	case 0:
		cfg.xids = []xidAt{{at(8, 30), 13}, {at(50, 90), 13}, {at(110, 150), 43}}
	case 1:
		cfg.xids = []xidAt{{at(10, 40), 31}, {at(80, 140), 31}}
	default:
		t := at(15, 60)
		cfg.xids = []xidAt{{t, 48}, {t + 1, 63}}
	}
	healthyTrainer(b, 0, "carol")
}

func buildECC(b *builder) {
	e := &b.n.gpus[0].cfg.ecc
	e.uncorrected, e.corrected, e.remapped = 1+b.rng.IntN(3), 10+b.rng.IntN(190), 2+b.rng.IntN(5)
	if b.rng.IntN(4) == 0 {
		e.failed = true // no spare rows left in that bank
	} else {
		e.pending = true // the remap takes effect at the next GPU reset
	}
	healthyTrainer(b, 0, "dave")
}

// notebook is a Jupyter kernel that loaded a model on gpu and went quiet.
func notebook(b *builder, gpu int, user string) *hostProc {
	lab := b.proc(procSpec{user: user, name: "jupyter-lab", cmdline: "/opt/conda/bin/python /opt/conda/bin/jupyter-lab --no-browser --port=8888",
		numa: numaOf(gpu), cpu: span{0.1, 0.5}, threads: 12, rssGiB: span{0.3, 0.8}, start: b.ago(span{300, 2000})})
	kernel := b.proc(procSpec{parent: lab, user: user, name: "python",
		cmdline: fmt.Sprintf("/opt/conda/bin/python -m ipykernel_launcher -f /home/%s/.local/share/jupyter/runtime/kernel-%08x.json", user, b.rng.Uint32()),
		numa:    numaOf(gpu), cpu: span{0, 0.3}, threads: 40, rssGiB: span{6, 24}, start: b.ago(span{30, 240})})
	b.attach(gpu, kernel, span{60, 110}.draw(b.rng), 1)
	c := newCycle(b.sub(), holderPhases()...)
	b.run([]int{gpu}, c, jobLevels(c))
	return lab
}

func buildMemoryHeld(b *builder) { notebook(b, 0, "carol") }

// server is vLLM (which pre-allocates 90% of memory for its KV cache) or
// Triton, seeing a trickle of requests.
func server(b *builder, gpu int, triton bool) {
	s := procSpec{user: "svc-infer", name: "vllm", cmdline: "vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.90 --port 8000",
		numa: numaOf(gpu), cpu: span{32, 58}, threads: 150 + b.rng.IntN(60), rssGiB: span{10, 16}, start: b.ago(span{60, 4000})}
	if triton {
		s.name, s.cmdline, s.threads = "tritonserver", "tritonserver --model-repository=/models", 120+b.rng.IntN(40)
	}
	hp := b.proc(s)
	// Served from Kubernetes: the demo's pods (sampler/sim/pods.go).
	b.inPod(gpu, hp, sampler.Pod{Namespace: "inference", Name: s.name, Container: s.name})
	b.attach(gpu, hp, span{0.86, 0.91}.draw(b.rng)*memTotal/gib-1, 1)
	c := newCycle(b.sub(), servingPhases(b.rng)...)
	b.run([]int{gpu}, c, jobLevels(c))
	b.n.host.netMean = span{5e6, 2e7}.draw(b.rng)
}

func buildServing(b *builder) { server(b, 0, b.rng.IntN(3) == 0) }

// buildMixed is a shared node: 0 healthy training, 1 input-starved, 2 an idle
// notebook holding memory, 3 an underfilled server, 4 overheating, 5
// launch-bound, 6 idle and empty, 7 memory-bandwidth-bound.
func buildMixed(b *builder) {
	healthyTrainer(b, 0, "alice")
	starvedTrainer(b, 1, false)
	b.inContainer(notebook(b, 2, "carol")) // JupyterLab in docker
	server(b, 3, false)
	hotGPU(b, 4)
	launchBound(b, 5)
	memBound(b, 7)
}
