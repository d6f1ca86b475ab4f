package diagnose

import (
	"fmt"

	"github.com/gpuscope/gpuscope/sampler"
)

// Thresholds of the in-GPU rules (SM, tensor and DRAM activity from GPM or
// DCGM profiling); docs/references.md lists the keys.
const (
	// launchUtilMin / launchSMMax: util ≥ 80% while SM active < 50%:
	// [dcgm-profiling] calls SM active < 0.5 "likely ineffective" use of the
	// GPU and ≥ 0.8 necessary for good use; [gpu-idle-handbook] §3.2.
	launchUtilMin = 80.0
	launchSMMax   = 50.0
	// mostOfWindow: a condition holding in 70% of samples holds "for most of
	// the window": the same share the engine opens a finding at (engine.go).
	mostOfWindow = 0.7
	// dramBound: DRAM active ≥ 70% is memory-bound; ≈ 80% is the practical
	// peak ([dcgm-profiling] DRAM active); 70 leaves room for the sampling
	// noise of a job that sits at that peak.
	dramBound = 70.0
	// noGPMUtil / noGPMPower: pre-Hopper fallback "util ≥ 90% and power < 40%
	// of limit" ([gpu-idle-handbook] §3.2: busy by GPU-Util, cool by power).
	// Util at 80%, the GPM path's test: a launch-bound loop's util jitters
	// 85-99 (measured with the demo's launch_bound scenario), and power
	// carries the verdict.
	noGPMUtil  = launchUtilMin
	noGPMPower = 40.0
	// tensorSMMin / tensorIdleMax: SM ≥ 50% and tensor < 5% for 30 s: busy
	// SMs with idle tensor cores run in FP32 ([torch-tb-profiler] Tensor
	// Cores view; [pytorch-amp]).
	tensorSMMin   = 50.0
	tensorIdleMax = 5.0
)

// Thresholds of copy_bound: synchronous or pageable copies show as PCIe
// traffic while the GPU idles ([nsight-systems] memcpy rules; a trace
// confirms, NVML cannot see the API calls).
const (
	copyActiveBytes = 0.5e9 // PCIe ≥ 0.5 GB/s counts as copying: well above a loader's steady trickle
	copyLowUtil     = 50.0  // ... alternating with util < 50%, the low-use line of [nsight-systems]
	copyMinFrac     = 0.3   // ... in ≥ 30% of samples: a third of the time lost to copies
	// copyShareOfLow: most low-util samples must be copying, or the gaps have
	// another cause; this separates copy waits from input waits.
	copyShareOfLow = 0.6
	// copyContrast / copyAntiCorr: "alternating" means PCIe is busier while
	// the GPU idles than while it computes: at least 2× on average, or util
	// and PCIe bytes anti-correlated (r ≤ -0.5) when phases shorter than a
	// sample blur into each other; the steady input traffic of a healthy
	// job is neither.
	copyContrast  = 2.0
	copyAntiCorr  = -0.5
	linkBoundFrac = 0.5  // ≥ 50% of link peak ([pcie-spec] rate per lane × width): half the link busy while the GPU idles is no stray transfer
	linkBoundUtil = 70.0 // ... while util < 70%: a GPU kept busy is not waiting on its link
)

// pcieLaneBytes is one lane's usable bytes/s per PCIe generation: Gen3 985 MB/s
// ([pcie-spec]: 8 GT/s with 128b/130b encoding), doubling per generation.
var pcieLaneBytes = [...]float64{0, 0.25e9, 0.5e9, 0.985e9, 1.969e9, 3.938e9, 7.877e9}

// linkPeak is the per-direction PCIe peak of x's current link, 0 when unknown.
func linkPeak(x *sampler.GPU) float64 {
	gen, width := x.PCIeGen, x.PCIeWidth
	if !gen.OK {
		gen = x.PCIeGenMax
	}
	if !width.OK {
		width = x.PCIeWidthMax
	}
	if !gen.OK || !width.OK || int(gen.V) < 1 || int(gen.V) >= len(pcieLaneBytes) {
		return 0
	}
	return pcieLaneBytes[int(gen.V)] * width.V
}

// ruleLaunchBound: kernels run all the time but occupy few SMs: the GPU is
// "busy" doing little ([gpu-idle-pipeline] §1 three levels, §2.2 launch overhead).
func (c *ctx) ruleLaunchBound(g *gpuCtx) (Finding, bool) {
	if !g.workload() || g.server {
		return Finding{}, false
	}
	if g.sm.ok(g.samples) {
		f, _ := c.fracFlag(g, flagLaunchSM)
		if f < mostOfWindow {
			return Finding{}, false
		}
		ev := append(Text{say("launch_bound.sm", "GPU-Util p50 {{.Util}} but SM active p50 {{.SM}} (tensor {{.Tensor}}, DRAM {{.DRAM}}) in {{.Share}} of {{.Span}}",
			"Util", pct(g.util.p50), "SM", pct(g.sm.p50), "Tensor", pctOrNA(g.tensor), "DRAM", pctOrNA(g.dram), "Share", pct(f*100), "Span", secs(g.span))}, c.mainAtCore(g)...)
		return c.finding(g, RuleLaunchBound, Warning, g.main.PID,
			say("launch_bound.title", "GPU {{.GPU}} busy but only ~{{.SM}} of SMs active: kernels too small", "GPU", g.idx, "SM", pct(g.sm.p50)), ev, hintLaunch, nil), true
	}
	f, known := c.fracFlag(g, flagLaunchPower)
	if known == 0 || f < mostOfWindow {
		return Finding{}, false
	}
	ev := append(Text{say("launch_bound.power", "GPU-Util p50 {{.Util}} while power is only {{.Power}} of the limit (p50) in {{.Share}} of {{.Span}}",
		"Util", pct(g.util.p50), "Power", pct(g.power.p50), "Share", pct(f*100), "Span", secs(g.span))}, c.mainAtCore(g)...)
	return c.finding(g, RuleLaunchBound, Warning, g.main.PID,
		say("launch_bound.title_power", "GPU {{.GPU}} busy at low power: kernels likely too small", "GPU", g.idx), ev, hintLaunch,
		Text{say("est.no_gpm_sm", "no GPM SM activity (needs Hopper or newer): estimated from power draw vs GPU-Util")}), true
}

// mainAtCore is the evidence of the main process's CPU, worded only for a
// finding (words are most of a rule's cost: docs/benchmarks.md).
func (c *ctx) mainAtCore(g *gpuCtx) Text {
	v, ok := c.procCPU(g, g.main.PID)
	if !ok {
		return nil
	}
	return Text{say("ev.who_at_core", "{{.Who}} at {{.CPU}} of one core", "Who", procWho(g.main.PID, g.mainHost), "CPU", pct(v))}
}

// ruleMemoryBandwidth: DRAM bandwidth saturated while compute waits on it
// ([gpu-idle-pipeline] §2.3).
func (c *ctx) ruleMemoryBandwidth(g *gpuCtx) (Finding, bool) {
	if !g.workload() {
		return Finding{}, false
	}
	gpm := g.dram.ok(g.samples)
	flag := uint16(flagDRAM)
	if !gpm {
		flag = flagMemUtil
	}
	f, known := c.fracFlag(g, flag)
	if known == 0 || f < mostOfWindow {
		return Finding{}, false
	}
	var est Text
	name := say("word.dram_active", "DRAM active")
	if !gpm {
		name = say("word.memctl_util", "memory-controller util")
		est = Text{say("est.no_gpm_dram", "no GPM DRAM bandwidth (needs Hopper or newer): estimated from NVML memory utilisation, a coarse signal")}
	}
	ev := Text{say("memory_bandwidth.ev", "{{.Name}} ≥{{.Limit}} in {{.Share}} of {{.Span}} (GPU-Util p50 {{.Util}}, SM active {{.SM}}, tensor {{.Tensor}})",
		"Name", name, "Limit", pct(dramBound), "Share", pct(f*100), "Span", secs(g.span), "Util", pct(g.util.p50), "SM", pctOrNA(g.sm), "Tensor", pctOrNA(g.tensor))}
	return c.finding(g, RuleMemoryBandwidth, Warning, g.main.PID,
		say("memory_bandwidth.title", "GPU {{.GPU}} is memory-bandwidth bound", "GPU", g.idx), ev, hintMemBW, est), true
}

// ruleTensorCoresIdle: SMs busy with no tensor-core work: FP32 math where
// mixed precision would use tensor cores ([gpu-idle-pipeline] §4.3). GPM only: without
// tensor activity the rule cannot decide and stays silent.
func (c *ctx) ruleTensorCoresIdle(g *gpuCtx) (Finding, bool) {
	if !g.workload() || !g.tensor.ok(g.samples) || !g.sm.ok(g.samples) {
		return Finding{}, false
	}
	f, _ := c.fracFlag(g, flagTensorIdle)
	if f < mostOfWindow {
		return Finding{}, false
	}
	ev := Text{say("tensor_idle.ev", "SM active p50 {{.SM}} but tensor active p50 {{.Tensor}} in {{.Share}} of {{.Span}}",
		"SM", pct(g.sm.p50), "Tensor", pct(g.tensor.p50), "Share", pct(f*100), "Span", secs(g.span)),
		say("ev.who", "{{.Who}}", "Who", procWho(g.main.PID, g.mainHost))}
	return c.finding(g, RuleTensorCoresIdle, Warning, g.main.PID,
		say("tensor_idle.title", "GPU {{.GPU}} computes without tensor cores", "GPU", g.idx), ev, hintAMP, nil), true
}

// ruleCopyBound: the GPU idles while PCIe moves data: copies are not
// overlapped with compute ([gpu-idle-pipeline] §2.5, §4.1 pin_memory).
func (c *ctx) ruleCopyBound(g *gpuCtx) (Finding, bool) {
	if !g.workload() || !c.mayCopy(g) {
		return Finding{}, false
	}
	n, low, lowCopy, linkBound, high := 0, 0, 0, 0, 0
	var peakSeen, bytesSum, lowBytes, highBytes float64
	c.buf, c.buf2 = c.buf[:0], c.buf2[:0]
	for i := g.from; i < len(c.w); i++ {
		x := g.col[i].x
		if x == nil || !x.Util.OK || (!x.PCIeRx.OK && !x.PCIeTx.OK) {
			continue
		}
		n++
		b := max(x.PCIeRx.Or(0), x.PCIeTx.Or(0))
		c.buf, c.buf2 = append(c.buf, x.Util.V), append(c.buf2, b)
		if x.Util.V < copyLowUtil {
			low++
			lowBytes += b
			if b >= copyActiveBytes {
				lowCopy++
				bytesSum += b
			}
		} else {
			high++
			highBytes += b
		}
		if p := linkPeak(x); p > 0 {
			peakSeen = p
			if b >= linkBoundFrac*p && x.Util.V < linkBoundUtil {
				linkBound++
			}
		}
	}
	if n == 0 {
		return Finding{}, false
	}
	corr := pearson(c.buf, c.buf2)
	contrast := high > 0 && lowBytes/float64(low) >= copyContrast*highBytes/float64(high)
	alternating := float64(lowCopy)/float64(n) >= copyMinFrac && float64(lowCopy) >= copyShareOfLow*float64(low) &&
		(contrast || corr <= copyAntiCorr)
	saturated := float64(linkBound)/float64(n) >= copyMinFrac
	if !alternating && !saturated {
		return Finding{}, false
	}
	ev := Text{say("copy_bound.ev", "PCIe ≥{{.Rate}} while GPU-Util <{{.Util}} in {{.Share}} of {{.Span}} samples (mean {{.Mean}} while copying; util vs PCIe r={{.R}})",
		"Rate", gbps(copyActiveBytes), "Util", pct(copyLowUtil), "Share", pct(float64(lowCopy)/float64(n)*100), "Span", secs(g.span),
		"Mean", gbps(bytesSum/float64(max(lowCopy, 1))), "R", fmt.Sprintf("%.2f", corr))}
	if peakSeen > 0 {
		ev = append(ev, say("copy_bound.link", "link ≥{{.Frac}} of its {{.Peak}} peak in {{.Share}} of samples",
			"Frac", pct(linkBoundFrac*100), "Peak", gbps(peakSeen), "Share", pct(float64(linkBound)/float64(n)*100)))
	}
	return c.finding(g, RuleCopyBound, Warning, g.main.PID,
		say("copy_bound.title", "GPU {{.GPU}} waits on host↔device copies", "GPU", g.idx), ev, hintCopy, nil), true
}

// pctOrNA prints a stats median as a percentage, or n/a. Not inlined, as
// gpuIn.
//
//go:noinline
func pctOrNA(s stats) string {
	if s.n == 0 {
		return "n/a"
	}
	return pct(s.p50)
}
