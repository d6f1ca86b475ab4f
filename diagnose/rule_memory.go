package diagnose

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Thresholds of the memory and serving rules; docs/references.md lists the keys.
const (
	// idleUtil: util < 10% is idle ([job-defense-shield] flags GPUs at 0%
	// use; 10% lets a notebook's occasional cell through).
	idleUtil = 10.0
	// idleShare: nearly every sample idle; a rare blip (a notebook cell
	// touching the GPU) does not count as work.
	idleShare = 0.95
	// idleHeldSpan: audits wait longer ([job-defense-shield] hours;
	// [jupyter-server-config] idle culling); 90 s so a live view with a
	// 120 s window can answer.
	idleHeldSpan = 90 * time.Second
	// idleHeldMem: a process holding ≥ 10% of the card: 10% of a 141 GB card
	// is 14 GB others cannot use.
	idleHeldMem = 10.0
	// memNearFull: > 90% used ([torch-tb-profiler] memory view): informational,
	// the caching allocator keeps what it freed.
	memNearFull = 90.0
	// memVeryFull: p50 ≥ 97% leaves < 5 GB on a 141 GB card, one activation
	// spike from OOM: raised to a warning.
	memVeryFull = 97.0
	// servingUtilMax: a server below 40% mean util has room to batch; [gpu-idle-handbook]
	// §4.1: 40% can be right if latency meets its target, hence info.
	servingUtilMax = 40.0
	// servingHogMem: a server with no traffic (util < idleUtil) holding ≥ 80% of
	// memory blocks the GPU for others: a warning.
	servingHogMem = 80.0
)

// ruleMemoryIdleHeld: a process holds memory on a GPU that does nothing
// ([gpu-idle-handbook] §6.1: memory full is not compute busy; §8.1 other processes).
func (c *ctx) ruleMemoryIdleHeld(g *gpuCtx) (Finding, bool) {
	if !g.workload() || g.server || g.span < idleHeldSpan {
		return Finding{}, false
	}
	f, known := c.fracFlag(g, flagIdle)
	if known == 0 || f < idleShare {
		return Finding{}, false
	}
	held, total := g.main.MemUsed, g.last.MemTotal
	if !held.OK {
		held = g.last.MemUsed
	}
	share, ok := ratioPct(held, total)
	if !ok || share < idleHeldMem {
		return Finding{}, false
	}
	hint := hintIdleHeld
	if g.notebook {
		hint = hintIdleNotebook
	}
	ev := Text{say("idle_held.util", "GPU-Util < {{.Util}} in {{.Share}} of {{.Span}} (max {{.Max}})",
		"Util", pct(idleUtil), "Share", pct(f*100), "Span", secs(g.span), "Max", pct(g.util.max)),
		say("idle_held.holds", "{{.Who}} holds {{.Held}} ({{.Pct}} of {{.Total}})",
			"Who", procWho(g.main.PID, g.mainHost), "Held", gbytes(held.V), "Pct", pct(share), "Total", gbytes(total.V))}
	return c.finding(g, RuleMemoryIdleHeld, Warning, g.main.PID,
		say("idle_held.title", "GPU {{.GPU}} idle while {{.Pct}} of its memory is held", "GPU", g.idx, "Pct", pct(share)), ev, hint, nil), true
}

// idleSample: no kernel ran (GPU-Util < idleUtil) and the video engines are
// idle too. GPU-Util counts only kernels ("percent of time over the past
// sample period during which one or more kernels was executing", NVML API
// reference, nvmlDeviceGetUtilizationRates); NVENC/NVDEC report their own
// (nvmlDeviceGetEncoderUtilization / nvmlDeviceGetDecoderUtilization), so a
// transcoding job reads ~0% GPU-Util while it works. Found by the
// lookalike_encode_only scenario (docs/diagnosis-accuracy.md).
func idleSample(x *sampler.GPU) bool {
	return x.Util.V < idleUtil && x.EncUtil.Or(0) < idleUtil && x.DecUtil.Or(0) < idleUtil
}

// ruleMemoryPressure: memory nearly full under load ([gpu-idle-pipeline] §2.5; [gpu-idle-handbook] §6.1).
func (c *ctx) ruleMemoryPressure(g *gpuCtx) (Finding, bool) {
	if !g.workload() || g.server || !g.mem.ok(g.samples) {
		return Finding{}, false
	}
	f, _ := c.fracFlag(g, flagMemFull)
	if f < mostOfWindow {
		return Finding{}, false
	}
	sev := Info
	if g.mem.p50 >= memVeryFull {
		sev = Warning
	}
	ev := Text{say("memory_pressure.ev", "memory used > {{.Limit}} in {{.Share}} of {{.Span}} (p50 {{.P50}}, max {{.Max}} of {{.Total}})",
		"Limit", pct(memNearFull), "Share", pct(f*100), "Span", secs(g.span), "P50", pct(g.mem.p50), "Max", pct(g.mem.max), "Total", gbytes(g.last.MemTotal.V)),
		say("ev.util_p50", "GPU-Util p50 {{.Util}}", "Util", pct(g.util.p50))}
	return c.finding(g, RuleMemoryPressure, sev, g.main.PID,
		say("memory_pressure.title", "GPU {{.GPU}} memory {{.Pct}} full", "GPU", g.idx, "Pct", pct(g.mem.p50)), ev, hintMemPressure, nil), true
}

// ruleServingUnderfilled: an inference server leaves the GPU mostly idle;
// the advice is batching requests, never a bigger training batch
// ([gpu-idle-handbook] §4.1-4.2).
func (c *ctx) ruleServingUnderfilled(g *gpuCtx) (Finding, bool) {
	if !g.workload() || !g.server || g.util.mean >= servingUtilMax {
		return Finding{}, false
	}
	sev := Info
	if g.util.mean < idleUtil && g.mem.p50 >= servingHogMem {
		sev = Warning
	}
	ev := Text{say("serving.util", "GPU-Util mean {{.Mean}} (p95 {{.P95}}) over {{.Span}}", "Mean", pct(g.util.mean), "P95", pct(g.util.p95), "Span", secs(g.span)),
		say("serving.mem", "memory {{.Mem}} used (pre-allocated KV cache / model)", "Mem", pctOrNA(g.mem)),
		say("ev.who", "{{.Who}}", "Who", procWho(g.main.PID, g.mainHost))}
	if cpu, ok := c.procCPU(g, g.main.PID); ok {
		ev = append(ev, then("ev.at_cpu", " at {{.CPU}} CPU", "CPU", pct(cpu)))
	}
	hint := hintServingDynamic
	if p := g.mainHost; p != nil && (containsAny(p.Cmdline, []string{"vllm", "sglang", "text-generation", "trtllm", "lmdeploy"})) {
		hint = hintServingContinuous
	}
	return c.finding(g, RuleServingUnderfilled, sev, g.main.PID,
		say("serving.title", "GPU {{.GPU}} inference server underfilled ({{.Busy}} busy)", "GPU", g.idx, "Busy", pct(g.util.mean)), ev, hint, nil), true
}
