package timeline

import (
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
)

// The rules a rank's timeline confirms, each worded as its live rule's
// finding (docs/playbook/<rule>.md) with the trace's evidence.

// inputStarved: the DataLoader takes more than 5% of each step, or, with no
// DataLoader in the trace and no sync to blame, the GPU idles most of the
// trace waiting for the host ([hta-docs] §Idle time: host wait is the CPU
// not queueing kernels fast enough).
func inputStarved(r Rank, synced bool) (Finding, bool) {
	b := r.Breakdown
	if l := r.Loader; l != nil {
		if l.StepShare <= loaderStepShare {
			return Finding{}, false
		}
		title := diagnose.Say("timeline.loader.title", "{{.Who}}: DataLoader takes {{.Share}} of each step", "Who", who(r.Rank), "Share", pct(l.StepShare))
		fix := "workers_saturated"
		if l.MainThread {
			title = diagnose.Say("timeline.loader_main.title", "{{.Who}}: DataLoader on the main thread (num_workers=0), {{.Share}} of each step",
				"Who", who(r.Rank), "Share", pct(l.StepShare))
			fix = "num_workers"
		}
		ev := diagnose.Text{
			diagnose.Say("timeline.loader.ev", "{{.Op}} ran {{.N}} {{plural .N \"time\" \"times\"}}, {{.Total}} in all; the GPU idled {{.Idle}} meanwhile ({{.Share}} of its idle time)",
				"Op", l.Name, "N", l.Count, "Total", Dur(l.TotalUS), "Idle", Dur(r.Causes.DuringLoaderUS), "Share", pct(share(r.Causes.DuringLoaderUS, b.IdleUS))),
			idleHost(r),
		}
		return found(diagnose.RuleInputStarved, r, true, title, ev, fix), true
	}
	host := 0.0
	if s, ok := r.MainStream(); ok {
		host, _, _ = s.IdleShare()
	}
	if synced || b.Share(b.IdleUS) < lowUtilIdle || host <= dominant {
		return Finding{}, false
	}
	title := diagnose.Say("timeline.host_wait.title", "{{.Who}}: the GPU waits for the host {{.Share}} of the trace",
		"Who", who(r.Rank), "Share", pct(b.Share(b.IdleUS)*host/100))
	ev := diagnose.Text{idleHost(r), diagnose.Say("timeline.no_loader", "no DataLoader in the trace: the host's own work between launches (input, Python, logging) is the delay")}
	return found(diagnose.RuleInputStarved, r, false, title, ev, "num_workers"), true
}

// syncStall: most of the idle follows host syncs that waited for the GPU,
// and it costs at least 5% of the trace ([nsight-systems] synchronisation
// APIs; [pytorch-cuda-notes] what synchronises).
func syncStall(r Rank) (Finding, bool) {
	b, c := r.Breakdown, r.Causes
	if len(r.Syncs) == 0 || c.AfterSyncUS <= dominant/100*b.IdleUS || b.Share(c.AfterSyncUS) < worthShare {
		return Finding{}, false
	}
	title := diagnose.Say("timeline.sync.title", "{{.Who}}: the GPU idles after host syncs, {{.Share}} of the trace",
		"Who", who(r.Rank), "Share", pct(b.Share(c.AfterSyncUS)))
	var ev diagnose.Text
	for i, s := range r.Syncs {
		if i == 3 {
			break
		}
		m := diagnose.Say("timeline.sync.call", "{{.N}}× {{.Name}} ({{.Total}})", "N", s.Count, "Name", s.Name, "Total", Dur(s.TotalUS))
		if s.Caller != "" {
			m = diagnose.Say("timeline.sync.call_from", "{{.N}}× {{.Name}} from {{.Caller}} ({{.Total}})",
				"N", s.Count, "Name", s.Name, "Caller", callerName(s.Caller), "Total", Dur(s.TotalUS))
		}
		if i > 0 {
			m.Join = diagnose.Item
		}
		ev = append(ev, m)
	}
	if c.SyncsPerStep > 0 {
		m := diagnose.Say("timeline.sync.per_step", " ({{.N}} per step)", "N", formatCount(c.SyncsPerStep))
		m.Join = diagnose.Continue
		ev = append(ev, m)
	}
	ev = append(ev, diagnose.Say("timeline.sync.idle", "the GPU idled {{.Idle}} after them, {{.Share}} of its idle time",
		"Idle", Dur(c.AfterSyncUS), "Share", pct(share(c.AfterSyncUS, b.IdleUS))))
	return found(diagnose.RuleSyncStall, r, true, title, ev, "sync"), true
}

// callerName adds the Python a reader wrote to the operator that synced.
func callerName(op string) string {
	switch op {
	case "aten::item", "aten::_local_scalar_dense":
		return op + " (.item())"
	case "aten::to", "aten::copy_", "aten::cpu":
		return op + " (.to()/.cpu())"
	case "aten::nonzero", "aten::is_nonzero":
		return op + " (nonzero / if tensor)"
	}
	return op
}

// launchBound: many kernels, most shorter than their own launch call, and
// the GPU idle for at least 5% of the trace ([hta-docs] §Launch stats).
func launchBound(r Rank) (Finding, bool) {
	k, b := r.Kernels, r.Breakdown
	if k.Count < minKernels || k.ShortShare < shortShare || k.MedianUS >= launchUS || b.Share(b.IdleUS) < worthShare {
		return Finding{}, false
	}
	title := diagnose.Say("timeline.launch.title", "{{.Who}}: {{.N}} kernels, median {{.Median}}", "Who", who(r.Rank), "N", k.Count, "Median", Dur(k.MedianUS))
	if r.Causes.KernelsPerStep > 0 {
		title = diagnose.Say("timeline.launch_step.title", "{{.Who}}: {{.N}} kernels per step, median {{.Median}}",
			"Who", who(r.Rank), "N", formatCount(r.Causes.KernelsPerStep), "Median", Dur(k.MedianUS))
	}
	ev := diagnose.Text{
		diagnose.Say("timeline.launch.short", "{{.Short}} ran shorter than their launch call (median launch {{.Launch}} on the CPU), {{.Under10}} under 10 µs",
			"Short", pct(k.ShortShare), "Launch", Dur(k.LaunchMedianUS), "Under10", pct(k.Under10)),
		idleHost(r),
	}
	return found(diagnose.RuleLaunchBound, r, true, title, ev, "launch"), true
}

// commBound: communication no computation overlaps takes 10% of the trace.
func commBound(r Rank) (Finding, bool) {
	b := r.Breakdown
	exposed := b.CommUS * (1 - b.OverlapShare/100)
	if b.Share(exposed) < commShare {
		return Finding{}, false
	}
	title := diagnose.Say("timeline.comm.title", "{{.Who}}: {{.Share}} of the trace in communication not overlapped with computation",
		"Who", who(r.Rank), "Share", pct(b.Share(exposed)))
	ev := diagnose.Text{diagnose.Say("timeline.comm.ev", "NCCL kernels {{.Comm}} ({{.CommShare}} of the trace), {{.Overlap}} of it under computation: {{.Exposed}} exposed",
		"Comm", Dur(b.CommUS), "CommShare", pct(b.Share(b.CommUS)), "Overlap", pct(b.OverlapShare), "Exposed", Dur(exposed))}
	return found(diagnose.RuleCommBound, r, true, title, ev, "comm_nvlink"), true
}

// copyBound: copies over a tenth of the trace, some from pageable memory.
func copyBound(r Rank) (Finding, bool) {
	c, b := r.Copies, r.Breakdown
	t := c.H2DUS + c.D2HUS
	if b.Share(t) < copyShare || c.PageableBytes == 0 {
		return Finding{}, false
	}
	title := diagnose.Say("timeline.copy.title", "{{.Who}}: host↔device copies take {{.Share}} of the trace, {{.Pageable}} of their bytes from pageable memory",
		"Who", who(r.Rank), "Share", pct(b.Share(t)), "Pageable", pct(share(float64(c.PageableBytes), float64(c.H2DBytes+c.D2HBytes))))
	ev := diagnose.Text{diagnose.Say("timeline.copy.ev", "host to device {{.H2D}} in {{.H2DTime}}, device to host {{.D2H}} in {{.D2HTime}}",
		"H2D", mib(c.H2DBytes), "H2DTime", Dur(c.H2DUS), "D2H", mib(c.D2HBytes), "D2HTime", Dur(c.D2HUS))}
	return found(diagnose.RuleCopyBound, r, true, title, ev, "copy"), true
}

// tensorCoresIdle: matrix multiplies over 5% of the trace, none in a
// tensor-core kernel, on a GPU that has them ([torch-tb-profiler] AMP
// recommendation: tensor cores unused on eligible operators).
func tensorCoresIdle(r Rank) (Finding, bool) {
	k, b := r.Kernels, r.Breakdown
	if r.ComputeMajor < tensorCoreMajor || k.TensorCoreUS > 0 || b.Share(k.MatmulUS) < worthShare {
		return Finding{}, false
	}
	top := ""
	for _, s := range k.Top {
		if s.Type == Compute && matmulName.MatchString(s.Name) {
			top = s.Name
			break
		}
	}
	title := diagnose.Say("timeline.tc.title", "{{.Who}}: matrix multiplies run without tensor cores, {{.Share}} of the trace",
		"Who", who(r.Rank), "Share", pct(b.Share(k.MatmulUS)))
	ev := diagnose.Text{diagnose.Say("timeline.tc.ev", "GEMM/convolution kernels {{.Matmul}}, none a tensor-core variant (the longest: {{.Kernel}})",
		"Matmul", Dur(k.MatmulUS), "Kernel", ShortName(top))}
	return found(diagnose.RuleTensorCoresIdle, r, true, title, ev, "amp"), true
}

func share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * part / whole
}

// formatCount is a per-step count: whole from 100, one decimal below.
func formatCount(v float64) string {
	if v >= 100 {
		return strconvF(v, 0)
	}
	return strings.TrimSuffix(strconvF(v, 1), ".0")
}

// Proves says whether a trace can show rule's cause at all: the rules
// above, and host_wait, which a trace decides (input or sync). Hardware
// health, memory and the node's balance are not in a timeline: a trace
// silent on them says nothing.
func Proves(rule string) bool {
	switch rule {
	case diagnose.RuleInputStarved, diagnose.RuleSyncStall, diagnose.RuleLaunchBound, diagnose.RuleCommBound,
		diagnose.RuleCopyBound, diagnose.RuleTensorCoresIdle, diagnose.RuleStraggler, diagnose.RuleHostWait:
		return true
	}
	return false
}
