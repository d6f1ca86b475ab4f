package diagnose

import (
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

// gpuRule is one per-GPU rule as the evaluation runs it: its position in
// Rules, its function and the positions of the rules it suppresses.
type gpuRule struct {
	rule       int
	fn         func(*ctx, *gpuCtx) (Finding, bool)
	suppresses []int
}

// rulePlan is the evaluation's view of the Rules table, derived from it
// once: which rules run on every GPU, which on a GPU with a process (in an
// order where each rule runs before the ones it suppresses), and which
// stay silent on a server or on a GPU whose job waits.
type rulePlan struct {
	anyGPU, workload []gpuRule
	serverSilent     uint32 // bit i: Rules[i].ServerSilent
	jobWaitSilent    uint32 // bit i: Rules[i].JobWaitSilent
}

var plan = newRulePlan(Rules)

func newRulePlan(rules []RuleInfo) rulePlan {
	var p rulePlan
	var workload []gpuRule
	suppressors := make([]uint32, len(rules)) // bit j of [i]: rules[j] suppresses rules[i]
	for i, r := range rules {
		if r.ServerSilent {
			p.serverSilent |= 1 << i
		}
		if r.JobWaitSilent {
			p.jobWaitSilent |= 1 << i
		}
		gr := gpuRule{rule: i, fn: gpuCheck(r.ID)}
		for _, s := range r.Suppresses {
			if j := slices.IndexFunc(rules, func(r RuleInfo) bool { return r.ID == s }); j >= 0 {
				gr.suppresses = append(gr.suppresses, j)
				suppressors[j] |= 1 << i
			}
		}
		switch {
		case gr.fn == nil:
		case r.Scope == ScopeGPU:
			p.anyGPU = append(p.anyGPU, gr)
		case r.Scope == ScopeWorkload:
			workload = append(workload, gr)
		}
	}
	// Canonical order, except that a rule waits until every workload rule
	// that suppresses it has run; the table has no cycles (rules_test.go).
	for len(workload) > 0 {
		left, i := workloadBits(workload), 0
		for i < len(workload)-1 && suppressors[workload[i].rule]&left != 0 {
			i++
		}
		p.workload = append(p.workload, workload[i])
		workload = append(workload[:i:i], workload[i+1:]...)
	}
	return p
}

// workloadBits is the set of rule positions in rs.
func workloadBits(rs []gpuRule) uint32 {
	var b uint32
	for _, r := range rs {
		b |= 1 << r.rule
	}
	return b
}

func (c *ctx) evaluate(out []Finding) []Finding {
	for gi := range c.gpus {
		g := &c.gpus[gi]
		for _, r := range plan.anyGPU {
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
			c.gpus[gi].suppressed |= plan.jobWaitSilent
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
			g.suppressed |= plan.serverSilent
		}
		for _, r := range plan.workload {
			if g.isSuppressed(r.rule) {
				continue
			}
			if f, ok := r.fn(c, g); ok {
				out = append(out, f)
				for _, s := range r.suppresses {
					g.suppress(s)
				}
			}
		}
	}
	return out
}

// finding builds a per-GPU finding. An estimated finding (est names the
// missing signal) is lowered one severity step: it was not measured.
func (c *ctx) finding(g *gpuCtx, rule string, sev Severity, pid int, title Msg, ev Text, hint fix, est Text) Finding {
	from := min(g.from, len(c.w)-1)
	if g.anonymous {
		est = append(est, say("est.no_process_list", "no process list in this data: a process was inferred from GPU activity"))
	}
	return c.make(rule, sev, g.idx, pid, title, ev, hint, est, from)
}

// healthFinding builds a per-GPU health finding over the whole window.
func (c *ctx) healthFinding(g *gpuCtx, rule string, sev Severity, title Msg, ev Text, hint fix) Finding {
	return c.make(rule, sev, g.idx, 0, title, ev, hint, nil, 0)
}

// nodeFinding builds a node-level finding (GPU -1). Not inlined, as
// gpuIn: 6 call sites.
//
//go:noinline
func (c *ctx) nodeFinding(rule string, sev Severity, pid int, title Msg, ev Text, hint fix, est Text, from int) Finding {
	return c.make(rule, sev, -1, pid, title, ev, hint, est, min(from, len(c.w)-1))
}

func (c *ctx) make(rule string, sev Severity, gpu, pid int, title Msg, ev Text, hint fix, est Text, from int) Finding {
	if len(est) > 0 && sev > Info {
		sev--
	}
	t, e, es, text := c.words.word(Key{rule, gpu, pid}, title, ev, est)
	return Finding{
		Rule: rule, Severity: sev, GPU: gpu, PID: pid, Title: t, Evidence: e, Hint: hint.en, FixID: hint.id,
		Estimated: es, Since: c.w[from].Time, LastSeen: c.last.Time, I18n: text,
	}
}
