package ui

import (
	"math"
	"syscall"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// t0 is the fixtures' clock: fixed so golden files match on every machine.
var t0 = time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)

const gib = 1 << 30

// noise is a deterministic wobble in [-1, 1] (no RNG: goldens must not move).
func noise(i, k int) float64 { return math.Sin(float64(i*7+k*13) * 0.7) }

// fixtureSnapshot is tick i of a mixed 8 × H200 node: 0 busy training,
// 1 bursty (input starved), 2 memory held by a notebook, 3 an underfilled
// inference server, 4 hot and throttled, 5 launch bound, 6 idle, 7 lost.
func fixtureSnapshot(i int) sampler.Snapshot {
	s := sampler.Snapshot{
		Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i + 1),
		Node: sampler.Node{Hostname: "gpu-node-17", Driver: "550.54.15", CUDA: "12.4", Source: "demo:mixed"},
	}
	host := &sampler.Host{
		CPU: sampler.Some(23 + 3*noise(i, 1)), IOWait: sampler.Some(1.2), Load1: sampler.Some(24.3), Load5: sampler.Some(22.1), Load15: sampler.Some(20.8),
		MemTotal: sampler.Some(2048 * gib), MemUsed: sampler.Some(412 * gib), SwapTotal: sampler.Some(8 * gib), SwapUsed: sampler.Some(0),
		DiskRead: sampler.Some(120e6), DiskWrite: sampler.Some(30e6), NetRx: sampler.Some(1.1e9), NetTx: sampler.Some(2e8),
		Procs: map[int]*sampler.Proc{},
	}
	for c := 0; c < 112; c++ {
		host.CPUs = append(host.CPUs, 15+10*noise(i, c))
	}
	host.CPUs[7] = 99 // the input-starved loader core
	addProc := func(pid, ppid int, user, cmd string, cpu, rss float64, children ...int) *sampler.Proc {
		p := &sampler.Proc{PID: pid, PPID: ppid, User: user, Name: cmd, Cmdline: cmd, State: "R", CPU: sampler.Some(cpu),
			RSS: sampler.Some(rss), Start: t0.Add(-time.Duration(pid) * time.Second), Children: children}
		host.Procs[pid] = p
		return p
	}
	workers := []int{2101, 2102, 2103, 2104, 2105, 2106, 2107, 2108}
	addProc(2100, 2000, "alice", "python train.py --rank 0", 75, 24*gib, workers...)
	for _, w := range workers {
		addProc(w, 2100, "alice", "python train.py --rank 0", 40, 3*gib)
	}
	addProc(3100, 3000, "bob", "python train.py --bs 256", 99, 18*gib)
	addProc(4100, 1, "carol", "python -m ipykernel_launcher -f kernel.json", 0.3, 6*gib).Container = "9c1e5a7b3d2f"
	// The server runs in a Kubernetes pod, the notebook in docker.
	vllm := addProc(5100, 1, "svc", "vllm serve meta-llama/Llama-3-70B", 45, 30*gib)
	vllm.Container, vllm.PodUID = "3f9a1c2b7d4e", "6b1b4a2e-7c3d-4e5f-8a9b-0c1d2e3f4a5b"
	vllm.Pod = sampler.Pod{Namespace: "inference", Name: "vllm-70b-6d8f9c7b5d-x2k4q", Container: "vllm"}
	addProc(6100, 1, "dave", "python train.py", 97, 20*gib)
	addProc(7100, 1, "erin", "python bench.py", 100, 8*gib, 7101, 7102, 7103, 7104)
	s.Host = host

	gp := func(pid int, mem, sm float64) sampler.GPUProc {
		return sampler.GPUProc{PID: pid, Type: "C", MemUsed: sampler.Some(mem), SMUtil: sampler.Some(sm), Host: host.Procs[pid]}
	}
	bursty := 0.0
	if i%4 < 2 {
		bursty = 100
	}
	for g := 0; g < 8; g++ {
		gpu := sampler.GPU{
			Index: g, Name: "NVIDIA H200 141GB HBM3e", Arch: "Hopper", UUID: "GPU-0000000" + string(rune('0'+g)),
			MemTotal: sampler.Some(141 * gib), PowerLimit: sampler.Some(700), TempSlowdown: sampler.Some(90),
			SMClockMax: sampler.Some(1980), Fan: sampler.NA, PCIeGen: sampler.Some(5), PCIeWidth: sampler.Some(16),
			PCIeGenMax: sampler.Some(5), PCIeWidthMax: sampler.Some(16), PCIeReplays: sampler.Some(0),
			ClockEvents: sampler.ClockEvents{OK: true}, NA: map[string]string{"fan": "not supported"},
		}
		util, sm, tc, dram, mem, temp, power, clock := 0.0, 0.0, 0.0, 0.0, 0.6*gib, 32.0, 75.0, 345.0
		switch g {
		case 0:
			util, sm, tc, dram, mem, temp, power, clock = 97+3*noise(i, g), 84+4*noise(i, 9), 60+5*noise(i, 3), 40, 112*gib, 66, 610+20*noise(i, 4), 1980
			gpu.Procs = []sampler.GPUProc{gp(2100, 111*gib, 92)}
		case 1:
			util, sm, tc, dram, mem, temp, power, clock = bursty, bursty*0.8, bursty*0.5, bursty*0.3, 60*gib, 48, 120+bursty*4, 1980
			gpu.Procs = []sampler.GPUProc{gp(3100, 59*gib, bursty)}
		case 2:
			mem, temp, power = 82*gib, 35, 90
			gpu.Procs = []sampler.GPUProc{gp(4100, 81*gib, 0)}
		case 3:
			util, sm, tc, dram, mem, temp, power, clock = 22+12*noise(i, g), 15, 8, 12, 124*gib, 45, 210, 1980
			gpu.Procs = []sampler.GPUProc{gp(5100, 123*gib, 22)}
		case 4:
			util, sm, tc, dram, mem, temp, power, clock = 100, 88, 62, 45, 100*gib, 91+noise(i, g), 640, 1290
			gpu.ClockEvents = sampler.ClockEvents{OK: true, Mask: sampler.ClockSwThermal | sampler.ClockHwThermal}
			gpu.Procs = []sampler.GPUProc{gp(6100, 99*gib, 100)}
		case 5:
			util, sm, tc, dram, mem, temp, power, clock = 94+3*noise(i, g), 22, 1, 7, 30*gib, 52, 190, 1980
			gpu.Procs = []sampler.GPUProc{gp(7100, 29*gib, 94)}
		case 7:
			gpu = sampler.GPU{Index: 7, Name: "NVIDIA H200 141GB HBM3e", Lost: true}
			s.GPUs = append(s.GPUs, gpu)
			continue
		}
		gpu.Util, gpu.SMActive, gpu.TensorActive, gpu.DRAMActive = sampler.Some(util), sampler.Some(sm), sampler.Some(tc), sampler.Some(dram)
		gpu.MemUsed, gpu.Temp, gpu.Power, gpu.SMClock = sampler.Some(mem), sampler.Some(temp), sampler.Some(power), sampler.Some(clock)
		gpu.PCIeRx, gpu.PCIeTx = sampler.Some(util*1e7), sampler.Some(util*3e6)
		s.GPUs = append(s.GPUs, gpu)
	}
	return s
}

// fakeDiagnoser stands in for the collector: each frame carries fixed
// findings, levels read from the newest snapshot and a fixed checklist.
type fakeDiagnoser struct {
	findings []diagnose.Finding
	lastLen  int // snapshots in the last frame's window
}

// push shows s as the collector would send it.
func (d *fakeDiagnoser) push(m Model, s sampler.Snapshot) Model { return m.Push(d.frame(m, s)) }

// push is fakeDiagnoser.push with the fixture's findings.
func push(m Model, s sampler.Snapshot) Model {
	return (&fakeDiagnoser{findings: fixtureFindings()}).push(m, s)
}

func (d *fakeDiagnoser) frame(m Model, s sampler.Snapshot) diagnose.Frame {
	from, n := s.Time, 1
	for i := m.c.hist.len() - 1; i >= 0; i-- {
		if t := m.c.hist.time(i); t.Before(s.Time) && s.Time.Sub(t) <= defaultWindow {
			from, n = t, n+1
		}
	}
	d.lastLen = n
	diag := &diagnose.Diagnosis{At: s.Time, From: from, Samples: n, Findings: d.findings}
	for _, g := range s.GPUs {
		// The label's messages, as diagnose builds them (level.p50 of a
		// word), so the Chinese screens show them translated.
		name := func(word string) diagnose.Text {
			return diagnose.Text{{ID: "level.p50", Words: map[string]diagnose.Msg{"Name": {ID: word}}, Args: map[string]string{"Value": ""}}}
		}
		diag.Levels = append(diag.Levels, diagnose.Levels{
			KernelRunning: diagnose.Level{Value: g.Util, Label: "GPU-Util p50", Verdict: "yes", I18n: name("word.gpu_util")},
			SMFilled:      diagnose.Level{Value: g.SMActive, Label: "SM active p50", Verdict: "partly", I18n: name("word.sm_active")},
			Computing:     diagnose.Level{Value: g.TensorActive, Label: "tensor active p50", Verdict: "no", I18n: name("word.tensor_active")},
		})
	}
	lists := max(1, len(s.GPUs))
	for _, f := range d.findings {
		lists = max(lists, f.GPU+1)
	}
	for g := range lists {
		diag.Checklists = append(diag.Checklists, fixtureChecklist(diagnose.ForGPU(d.findings, g)))
	}
	return diagnose.Frame{Snapshot: s, Diagnosis: diag}
}

func fixtureChecklist(fs []diagnose.Finding) []diagnose.Step {
	titles := []string{"GPU visible & healthy", "a process is on it", "kernels run (util)", "SMs filled", "tensor cores used", "input keeps up", "no throttling"}
	var out []diagnose.Step
	for i, t := range titles {
		st := "ok"
		if i == 5 && len(fs) > 1 {
			st = "bad"
		}
		if i == 4 {
			st = "warn"
		}
		out = append(out, diagnose.Step{N: i + 1, Title: t, Status: st})
	}
	return out
}

func fixtureFindings() []diagnose.Finding {
	fs := fixtureFindingsEnglish()
	// The messages the rules would attach, so the Chinese screens show
	// the findings in Chinese (the English screens use the texts above).
	msg := func(id string, kv ...string) diagnose.Msg {
		m := diagnose.Msg{ID: id, Args: map[string]string{}}
		for i := 0; i+1 < len(kv); i += 2 {
			m.Args[kv[i]] = kv[i+1]
		}
		return m
	}
	fs[0].I18n = &diagnose.FindingText{Title: msg("input_starved.title", "GPU", "1"), Evidence: diagnose.Text{
		msg("ev.util_spread", "P5", "0%", "P95", "100%", "Mean", "48%", "Span", "120 s"),
		msg("input_starved.main_saturated", "Who", "PID 3100 `python train.py`", "CPU", "99%", "Workers", "0")}}
	fs[1].I18n = &diagnose.FindingText{Title: msg("thermal.title_hw", "GPU", "4"), Evidence: diagnose.Text{
		msg("thermal.hw", "Reasons", "hw_thermal", "N", "120", "Samples", "120"), msg("thermal.temp", "Temp", "91")}}
	fs[2].I18n = &diagnose.FindingText{Title: msg("idle_held.title", "GPU", "2", "Pct", "58%"), Evidence: diagnose.Text{
		msg("idle_held.util", "Util", "10%", "Share", "100%", "Span", "120 s", "Max", "0%"),
		msg("idle_held.holds", "Who", "PID 4100 `ipykernel`", "Held", "81 GiB", "Pct", "58%", "Total", "140 GiB")}}
	fs[3].I18n = &diagnose.FindingText{Title: msg("launch_bound.title", "GPU", "5", "SM", "22%"), Evidence: diagnose.Text{
		msg("launch_bound.sm", "Util", "94%", "SM", "22%", "Tensor", "1%", "DRAM", "5%", "Share", "100%", "Span", "120 s")}}
	return fs
}

func fixtureFindingsEnglish() []diagnose.Finding {
	return []diagnose.Finding{
		{Rule: "input_starved", Severity: diagnose.Warning, GPU: 1, PID: 3100, Title: "GPU 1 waits for input: util swings 0↔100",
			Evidence: "util p5 0% p95 100% over 120 s; python train.py at 99% of a core with 0 DataLoader workers",
			Hint:     "set DataLoader(num_workers=8, pin_memory=True, persistent_workers=True)", Since: t0.Add(30 * time.Second)},
		{Rule: "thermal_throttle", Severity: diagnose.Critical, GPU: 4, PID: 6100, Title: "GPU 4 is thermal throttling",
			Evidence: "91 °C (slowdown 90 °C), hw_thermal active 100% of 120 s, SM clock 1290/1980 MHz",
			Hint:     "check airflow and inlet temperature; nvidia-smi -q -d PERFORMANCE,TEMPERATURE -i 4", Since: t0.Add(10 * time.Second)},
		{Rule: "memory_idle_held", Severity: diagnose.Warning, GPU: 2, PID: 4100, Title: "GPU 2: 81 GiB held by an idle notebook",
			Evidence: "util 0% for 120 s while PID 4100 (ipykernel) holds 81 GiB",
			Hint:     "shut down the kernel or free tensors (torch.cuda.empty_cache())", Since: t0},
		{Rule: "launch_bound", Severity: diagnose.Info, GPU: 5, PID: 7100, Title: "GPU 5 busy but SMs mostly empty: small kernels",
			Evidence: "util 94% but SM active 22% for 120 s; python bench.py at 100% CPU",
			Hint:     "capture with CUDA graphs or torch.compile(mode=\"reduce-overhead\"); raise the batch", Estimated: "", Since: t0.Add(5 * time.Second)},
	}
}

// fixtureModel is a dashboard fed n ticks of the mixed node.
func fixtureModel(n, w, h int) (Model, *fakeDiagnoser) {
	return fixtureModelWith(n, w, h, nil)
}

// fixtureModelWith is fixtureModel with its options changed by edit first.
func fixtureModelWith(n, w, h int, edit func(*Options)) (Model, *fakeDiagnoser) {
	d := &fakeDiagnoser{findings: fixtureFindings()}
	opts := Options{
		Styles: testStyles(), Interval: time.Second, Badge: "DEMO mixed", Rules: 20,
		Now: func() time.Time { return t0 },
		Playbook: func(rule, lang string, gpu, pid int) string {
			return "# " + rule + "\n\nWhat it means: the GPU waits for the next batch, a sentence long enough to be\nwrapped to the pane.\n\n## Confirm\n\n```sh\nnvidia-smi dmon -s u -i " +
				itoa(gpu) + "\npy-spy dump --pid " + itoa(pid) + "\n```\n\n## Fixes, in order\n\n1. `num_workers`\n2. `pin_memory`\n3. prefetch\n"
		},
	}
	if edit != nil {
		edit(&opts)
	}
	m := New(opts)
	m = m.resize(w, h)
	for i := 0; i < n; i++ {
		m = d.push(m, fixtureSnapshot(i))
	}
	return m, d
}

func itoa(i int) string { return fmtInt(i) }

// live gives a fixture what the live dashboard has (signals, the r
// recording, the sampling interval), so its help lists those keys.
func live(o *Options) {
	o.Kill = func(int, syscall.Signal) error { return nil }
	o.Record = func() (string, bool, error) { return "", false, nil }
	o.SetInterval = func(time.Duration) {}
}
