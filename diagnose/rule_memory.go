package diagnose

import (
	"fmt"
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
	f, known := c.fracGPU(g, func(x *sampler.GPU) (bool, bool) { return idleSample(x), x.Util.OK })
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
	ev := fmt.Sprintf("GPU-Util < %s in %s of %s (max %s); %s holds %s (%s of %s)",
		pct(idleUtil), pct(f*100), secs(g.span), pct(g.util.max), procLabel(g.main.PID, g.mainHost), gbytes(held.V), pct(share), gbytes(total.V))
	return c.finding(g, RuleMemoryIdleHeld, Warning, g.main.PID,
		fmt.Sprintf("GPU %d idle while %s of its memory is held", g.idx, pct(share)), ev, hint, ""), true
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
	f, _ := c.fracGPU(g, func(x *sampler.GPU) (bool, bool) {
		p, ok := ratioPct(x.MemUsed, x.MemTotal)
		return p > memNearFull, ok
	})
	if f < mostOfWindow {
		return Finding{}, false
	}
	sev := Info
	if g.mem.p50 >= memVeryFull {
		sev = Warning
	}
	ev := fmt.Sprintf("memory used > %s in %s of %s (p50 %s, max %s of %s); GPU-Util p50 %s",
		pct(memNearFull), pct(f*100), secs(g.span), pct(g.mem.p50), pct(g.mem.max), gbytes(g.last.MemTotal.V), pct(g.util.p50))
	return c.finding(g, RuleMemoryPressure, sev, g.main.PID,
		fmt.Sprintf("GPU %d memory %s full", g.idx, pct(g.mem.p50)), ev, hintMemPressure, ""), true
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
	ev := fmt.Sprintf("GPU-Util mean %s (p95 %s) over %s; memory %s used (pre-allocated KV cache / model); %s",
		pct(g.util.mean), pct(g.util.p95), secs(g.span), pctOrNA(g.mem), procLabel(g.main.PID, g.mainHost))
	if cpu, ok := c.procCPU(g, g.main.PID); ok {
		ev += fmt.Sprintf(" at %s CPU", pct(cpu))
	}
	hint := hintServingDynamic
	if p := g.mainHost; p != nil && (containsAny(p.Cmdline, []string{"vllm", "sglang", "text-generation", "trtllm", "lmdeploy"})) {
		hint = hintServingContinuous
	}
	return c.finding(g, RuleServingUnderfilled, sev, g.main.PID,
		fmt.Sprintf("GPU %d inference server underfilled (%s busy)", g.idx, pct(g.util.mean)), ev, hint, ""), true
}
