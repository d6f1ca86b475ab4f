package diagnose

import (
	"cmp"
	"slices"

	"github.com/gpuscope/gpuscope/sampler"
)

// Evaluate returns the raw rule matches on this window (oldest first), ranked.
// It keeps no state: the Engine adds hysteresis on top. Since is the start of
// the stretch the rule judged (after a new process's grace period), LastSeen
// the newest snapshot.
func Evaluate(window []sampler.Snapshot) []Finding {
	if len(window) == 0 {
		return nil
	}
	out := newCtx(window).evaluate(nil)
	Rank(out)
	return out
}

// gpuRule is one per-GPU rule and its position in Rules.
type gpuRule struct {
	rule int
	fn   func(*ctx, *gpuCtx) (Finding, bool)
}

// healthRules fire on any GPU, with or without a process.
var healthRules = [...]gpuRule{
	{rXidError, (*ctx).ruleXid},
	{rECCErrors, (*ctx).ruleECC},
	{rPCIeErrors, (*ctx).rulePCIeErrors},
	{rThermalThrottle, (*ctx).ruleThermal},
	{rPCIeLinkDegraded, (*ctx).rulePCIeLink},
	{rPowerCapped, (*ctx).rulePowerCapped},
}

// workloadRules run in this order so that a more specific finding can
// suppress a vaguer one on the same GPU (io_bound before input_starved,
// copy_bound before sync_stall, memory_bandwidth_bound before tensor_cores_idle).
var workloadRules = [...]gpuRule{
	{rServingUnderfilled, (*ctx).ruleServingUnderfilled},
	{rGPUContention, (*ctx).ruleGPUContention},
	{rIOBound, (*ctx).ruleIOBound},
	{rInputStarved, (*ctx).ruleInputStarved},
	{rCopyBound, (*ctx).ruleCopyBound},
	{rSyncStall, (*ctx).ruleSyncStall},
	{rLaunchBound, (*ctx).ruleLaunchBound},
	{rMemoryBandwidth, (*ctx).ruleMemoryBandwidth},
	{rTensorCoresIdle, (*ctx).ruleTensorCoresIdle},
	{rMemoryIdleHeld, (*ctx).ruleMemoryIdleHeld},
	{rMemoryPressure, (*ctx).ruleMemoryPressure},
}

// suppressedBy: when the key rule fires on a GPU, these rules stay silent
// there, because the key explains the same symptom better.
func suppressedBy(rule int) []int {
	switch rule {
	case rIOBound: // reads, not CPU, hold the loader
		return []int{rInputStarved, rSyncStall}
	case rInputStarved:
		return []int{rSyncStall}
	case rCopyBound: // the dips are the copies
		return []int{rSyncStall}
	case rMemoryBandwidth: // memory-bound ops are not tensor-core eligible
		return []int{rTensorCoresIdle}
	case rGPUContention: // time-sliced kernels look small and cool: the neighbours are the cause
		return []int{rLaunchBound}
	}
	return nil
}

// serverSilences: an inference server's idle time is request-driven; training
// advice (workers, batch size, memory headroom) does not apply to it.
var serverSilences = [...]int{rInputStarved, rIOBound, rSyncStall, rLaunchBound, rMemoryPressure, rMemoryIdleHeld}

// jobWaitSilences: GPUs waiting on a straggler or on communication look
// launch-bound, stalled or copy-bound; the node finding names the cause.
var jobWaitSilences = [...]int{rLaunchBound, rSyncStall, rCopyBound}

func (c *ctx) evaluate(out []Finding) []Finding {
	for gi := range c.gpus {
		g := &c.gpus[gi]
		for _, r := range healthRules {
			if f, ok := r.fn(c, g); ok {
				out = append(out, f)
			}
		}
	}
	for ji := range c.jobs {
		j := &c.jobs[ji]
		f, _, ok := c.ruleStraggler(j)
		if !ok {
			f, ok = c.ruleCommBound(j)
		}
		if !ok {
			continue
		}
		out = append(out, f)
		for _, gi := range j.gpus {
			for _, r := range jobWaitSilences {
				c.gpus[gi].suppress(r)
			}
		}
	}
	if f, ok := c.ruleLoadImbalance(); ok {
		out = append(out, f)
	}
	for gi := range c.gpus {
		g := &c.gpus[gi]
		if g.main == nil {
			continue // idle GPUs with no process are not a problem
		}
		if g.server {
			for _, r := range serverSilences {
				g.suppress(r)
			}
		}
		for _, r := range workloadRules {
			if g.isSuppressed(r.rule) {
				continue
			}
			if f, ok := r.fn(c, g); ok {
				out = append(out, f)
				for _, s := range suppressedBy(r.rule) {
					g.suppress(s)
				}
			}
		}
	}
	return out
}

// finding builds a per-GPU finding. An estimated finding (est names the
// missing signal) is lowered one severity step: it was not measured.
func (c *ctx) finding(g *gpuCtx, rule string, sev Severity, pid int, title Msg, ev Text, hint string, est Text) Finding {
	from := min(g.from, len(c.w)-1)
	if g.anonymous {
		est = append(est, say("est.no_process_list", "no process list in this data: a process was inferred from GPU activity"))
	}
	return c.make(rule, sev, g.idx, pid, title, ev, hint, est, from)
}

// healthFinding builds a per-GPU health finding over the whole window.
func (c *ctx) healthFinding(g *gpuCtx, rule string, sev Severity, title Msg, ev Text, hint string) Finding {
	return c.make(rule, sev, g.idx, 0, title, ev, hint, nil, 0)
}

// nodeFinding builds a node-level finding (GPU -1).
func (c *ctx) nodeFinding(rule string, sev Severity, pid int, title Msg, ev Text, hint string, est Text, from int) Finding {
	return c.make(rule, sev, -1, pid, title, ev, hint, est, min(from, len(c.w)-1))
}

func (c *ctx) make(rule string, sev Severity, gpu, pid int, title Msg, ev Text, hint string, est Text, from int) Finding {
	if len(est) > 0 && sev > Info {
		sev--
	}
	return Finding{
		Rule: rule, Severity: sev, GPU: gpu, PID: pid, Title: title.en, Evidence: ev.String(), Hint: hint,
		Estimated: est.String(), Since: c.w[from].Time, LastSeen: c.last.Time,
		I18n: &FindingText{Title: title, Evidence: ev, Estimated: est},
	}
}

// Rank orders findings: severity (worst first), node-level before per-GPU,
// then GPU index, then the rule's position in Rules.
func Rank(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		if a.Severity != b.Severity {
			return cmp.Compare(b.Severity, a.Severity)
		}
		if an, bn := a.GPU < 0, b.GPU < 0; an != bn {
			if an {
				return -1
			}
			return 1
		}
		if a.GPU != b.GPU {
			return cmp.Compare(a.GPU, b.GPU)
		}
		return cmp.Compare(ruleIndex(a.Rule), ruleIndex(b.Rule))
	})
}
