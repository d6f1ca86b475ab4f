package diagnose

import (
	"fmt"
	"math"

	"github.com/gpuscope/gpuscope/sampler"
)

// Thresholds of the host-side rules; docs/references.md lists the keys.
const (
	// burstyHigh / burstyLow: bursty when p95 ≥ 70 and p5 < 10
	// ([sagemaker-debugger-rules] LowGPUUtilization; [torch-tb-profiler]).
	burstyHigh = 70.0
	burstyLow  = 10.0
	// lowUtilMean: mean < 50% over 30 s ([nsight-systems] GPU utilization rule).
	lowUtilMean = 50.0
	// everRuns: a GPU whose p95 util stays under this never really ran work;
	// it is idle (memory_idle_held), not starved: a starved loop still
	// reaches full util between batches.
	everRuns = 30.0
	// saturatedCore: a process at ≥ 90% of one core is CPU-bound
	// ([sagemaker-debugger-rules] CPUBottleneck: CPU > 90%).
	saturatedCore = 90.0
	// hostSaturated: whole-host CPU ≥ 90% ([sagemaker-debugger-rules] CPUBottleneck).
	hostSaturated = 90.0
	// fewWorkers: num_workers 0 or 1 loads data in (or next to) the training
	// loop ([gpu-idle-pipeline] §2.1: default num_workers=0).
	fewWorkers = 1
	// ioWaitHigh: iowait share counted as I/O-bound. [sagemaker-debugger-rules]
	// IOBottleneck uses > 50%; 20% here because a many-core host dilutes one
	// job's iowait (one loader core waiting on a 112-core host is < 1%).
	ioWaitHigh = 20.0
	// mostSamples: in > 50% of samples ([sagemaker-debugger-rules]).
	mostSamples = 0.5
	// dShareHigh: half the job's processes in uninterruptible sleep (D) means
	// they wait on storage (proc(5) state D: uninterruptible, usually disk).
	dShareHigh = 0.5
)

// Thresholds of sync_stall. No tool names this pattern from 1 Hz counters:
// it rests on [gpu-idle-pipeline] §2.4's sync points, and the numbers are
// set from the demo's sync_stall scenario and its look-alikes (held by
// TestAccuracy, docs/diagnosis-accuracy.md).
// Dips must be resolved in time: at 2 s ticks a 3-5 s period aliases and the
// rule loses most of its sensitivity (simulator: 1 of 4 seeds at 2 s, 4 of 4
// at 1 s and 0.5 s).
const (
	syncUtilMin = 30.0 // docs/scenarios.md: mean util 30-85
	syncUtilMax = 85.0
	dipFraction = 0.6  // a dip: util below 60% of the window median (noise is ±5 points)
	minDips     = 4    // at least 4 dips to call them periodic
	maxDipCV    = 0.35 // dip-to-dip interval coefficient of variation: "regular"
	maxDipShare = 0.4  // stalls interrupt mostly-busy time; more idle than this is starvation
	// syncProcMax: the main process below 80% of a core is not host-bound
	// (saturatedCore's 90% marks a host-bound loop; 80% keeps a margin).
	syncProcMax = 80.0
	// syncHostMax: system CPU < 70%: a host with cores to spare, so the
	// dips are not CPU contention.
	syncHostMax = 70.0
	// syncIOWaitMax: little iowait, so dips are not reads (half of ioWaitHigh).
	syncIOWaitMax = 10.0
)

// ruleInputStarved: the GPU idles in bursts while the host side that feeds it
// is saturated ([gpu-idle-pipeline] §2.1; [gpu-idle-handbook] §3.1, §7.1 step 3).
func (c *ctx) ruleInputStarved(g *gpuCtx) (Finding, bool) {
	if !g.workload() || g.server || g.util.p95 < everRuns {
		return Finding{}, false
	}
	bursty := g.util.p95 >= burstyHigh && g.util.p5 < burstyLow
	if !bursty && g.util.mean >= lowUtilMean {
		return Finding{}, false
	}
	utilEv := func() Msg { // worded only for a finding
		return say("ev.util_spread", "GPU-Util p5 {{.P5}} / p95 {{.P95}} (mean {{.Mean}}) over {{.Span}}",
			"P5", pct(g.util.p5), "P95", pct(g.util.p95), "Mean", pct(g.util.mean), "Span", secs(g.span))
	}
	who := procWho(g.main.PID, g.mainHost)
	if !c.hostSeen {
		if !bursty {
			return Finding{}, false
		}
		return c.finding(g, RuleInputStarved, Warning, g.main.PID,
			say("input_starved.title_no_host", "GPU {{.GPU}} idles in bursts; input pipeline most likely (no host data)", "GPU", g.idx),
			Text{utilEv(), say("ev.who", "{{.Who}}", "Who", who)}, hintNumWorkers,
			Text{say("est.no_host_data", "no host data: CPU and DataLoader workers not seen; cause inferred from the util pattern only")}), true
	}
	mainCPU, mainOK := c.procCPU(g, g.main.PID)
	ws := c.workers(g)
	hostCPU, hostOK := c.hostMean(g.from, func(h *sampler.Host) sampler.Metric { return h.CPU })
	var cause Msg
	var hint fix
	switch {
	case mainOK && mainCPU >= saturatedCore && ws.n <= fewWorkers:
		cause = say("input_starved.main_saturated", "{{.Who}} at {{.CPU}} of one core with {{.Workers}} worker {{plural .Workers \"process\" \"processes\"}}",
			"Who", who, "CPU", pct(mainCPU), "Workers", ws.n)
		hint = hintNumWorkers
	case ws.n > fewWorkers && ws.minCPU >= saturatedCore:
		cause = say("input_starved.workers_saturated", "{{.Who}}: all {{.Workers}} workers at ≥{{.Min}} of a core (mean {{.Mean}})",
			"Who", who, "Workers", ws.n, "Min", pct(ws.minCPU), "Mean", pct(ws.meanCPU))
		hint = hintWorkersSaturated
	case hostOK && hostCPU >= hostSaturated:
		cause = say("input_starved.host_saturated", "host CPU {{.CPU}} busy on average; {{.Who}}", "CPU", pct(hostCPU), "Who", who)
		hint = hintHostSaturated
	default:
		return Finding{}, false
	}
	return c.finding(g, RuleInputStarved, Warning, g.main.PID,
		say("input_starved.title", "GPU {{.GPU}} starved: the CPU side cannot feed it", "GPU", g.idx),
		Text{utilEv(), cause}, hint, nil), true
}

// ruleIOBound: low GPU time with the job's processes waiting on storage
// ([gpu-idle-handbook] §7.1 step 4; [gpu-idle-pipeline] §4.1 on small-file random reads).
func (c *ctx) ruleIOBound(g *gpuCtx) (Finding, bool) {
	if !g.workload() || g.server || !c.hostSeen || g.util.mean >= lowUtilMean {
		return Finding{}, false
	}
	ioFrac, ioKnown := c.hostFrac(g.from, func(h *sampler.Host) (bool, bool) { return h.IOWait.V >= ioWaitHigh, h.IOWait.OK })
	ws := c.workers(g)
	ioHigh := ioKnown > 0 && ioFrac >= mostSamples
	dHigh := ws.stateSeen && ws.inD >= dShareHigh
	if !ioHigh && !dHigh {
		return Finding{}, false
	}
	ev := Text{say("ev.util_mean", "GPU-Util mean {{.Mean}} over {{.Span}}", "Mean", pct(g.util.mean), "Span", secs(g.span))}
	if iow, ok := c.hostMean(g.from, func(h *sampler.Host) sampler.Metric { return h.IOWait }); ok {
		ev = append(ev, say("io_bound.iowait", "host iowait mean {{.Mean}} (≥{{.Limit}} in {{.Share}} of samples)",
			"Mean", pct(iow), "Limit", pct(ioWaitHigh), "Share", pct(ioFrac*100)))
	}
	if ws.stateSeen {
		ev = append(ev, say("io_bound.d_state", "job processes in D state {{.Share}} of the time ({{.Workers}} {{plural .Workers \"worker\" \"workers\"}})",
			"Share", pct(ws.inD*100), "Workers", ws.n))
	}
	if rd, ok := c.hostMean(g.from, func(h *sampler.Host) sampler.Metric { return h.DiskRead }); ok {
		ev = append(ev, say("io_bound.disk_read", "disk read {{.Rate}}", "Rate", gbps(rd)))
	}
	return c.finding(g, RuleIOBound, Warning, g.main.PID,
		say("io_bound.title", "GPU {{.GPU}} waits on data reads (I/O-bound)", "GPU", g.idx), ev, hintIO, nil), true
}

// ruleSyncStall: regular short dips in an otherwise busy GPU while nothing on
// the host is saturated: the training loop stops at a sync point ([gpu-idle-pipeline] §2.4:
// .item(), tensor.cuda(), synchronize; logging or checkpoints every N steps).
func (c *ctx) ruleSyncStall(g *gpuCtx) (Finding, bool) {
	if !g.workload() || g.server || !c.hostSeen || g.util.mean < syncUtilMin || g.util.mean > syncUtilMax {
		return Finding{}, false
	}
	period, cv, dips, share := c.dipPeriod(g)
	if dips < minDips || cv > maxDipCV || share > maxDipShare {
		return Finding{}, false
	}
	mainCPU, mainOK := c.procCPU(g, g.main.PID)
	if mainOK && mainCPU >= syncProcMax {
		return Finding{}, false
	}
	if ws := c.workers(g); ws.n > fewWorkers && ws.minCPU >= saturatedCore {
		return Finding{}, false
	}
	hostCPU, hostOK := c.hostMean(g.from, func(h *sampler.Host) sampler.Metric { return h.CPU })
	iow, iowOK := c.hostMean(g.from, func(h *sampler.Host) sampler.Metric { return h.IOWait })
	if (hostOK && hostCPU >= syncHostMax) || (iowOK && iow >= syncIOWaitMax) {
		return Finding{}, false
	}
	ev := Text{say("sync_stall.dips", "GPU-Util mean {{.Mean}} with {{.Dips}} dips every {{.Period}} s (CV {{.CV}}) over {{.Span}}",
		"Mean", pct(g.util.mean), "Dips", dips, "Period", fmt.Sprintf("%.1f", period), "CV", fmt.Sprintf("%.2f", cv), "Span", secs(g.span)),
		say("ev.who", "{{.Who}}", "Who", procWho(g.main.PID, g.mainHost))}
	if mainOK {
		ev = append(ev, then("ev.at_core", " at {{.CPU}} of a core", "CPU", pct(mainCPU)))
	}
	if hostOK {
		ev = append(ev, say("ev.host_cpu", "host CPU {{.CPU}}", "CPU", pct(hostCPU)))
	}
	if iowOK {
		ev = append(ev, item("ev.iowait", "iowait {{.IOWait}}", "IOWait", pct(iow)))
	}
	return c.finding(g, RuleSyncStall, Warning, g.main.PID,
		say("sync_stall.title", "GPU {{.GPU}} stalls at regular sync points", "GPU", g.idx), ev, hintSync, nil), true
}

// dipPeriod finds util dips (below dipFraction of the median, leaving when
// back above the midpoint) and returns the mean seconds between dip starts,
// the intervals' coefficient of variation, the dip count and the share of
// samples spent in dips.
func (c *ctx) dipPeriod(g *gpuCtx) (period, cv float64, dips int, share float64) {
	enter := g.util.p50 * dipFraction
	leave := (enter + g.util.p50) / 2
	in, inSamples, n := false, 0, 0
	var prevStart, sum, sumSq float64
	intervals := 0
	for i := g.from; i < len(c.w); i++ {
		x := g.col[i].x
		if x == nil || !x.Util.OK {
			continue
		}
		n++
		t := c.w[i].Time.Sub(c.w[0].Time).Seconds()
		switch {
		case !in && x.Util.V < enter:
			in = true
			if dips > 0 {
				d := t - prevStart
				sum += d
				sumSq += d * d
				intervals++
			}
			prevStart = t
			dips++
		case in && x.Util.V >= leave:
			in = false
		}
		if in {
			inSamples++
		}
	}
	if intervals < 2 || n == 0 {
		return 0, math.Inf(1), dips, 0
	}
	period = sum / float64(intervals)
	variance := max(sumSq/float64(intervals)-period*period, 0)
	return period, math.Sqrt(variance) / period, dips, float64(inSamples) / float64(n)
}
