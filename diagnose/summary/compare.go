package summary

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// Comparison is a before/after view of two reports: per GPU (matched by
// index) the figures side by side, and the findings that went away, appeared
// or persisted. Findings match on (rule, GPU), not the PID: a rerun of the
// same job gets new PIDs.
type Comparison struct {
	Base, After *Report
	GPUs        []GPUChange
	Resolved    []FindingChange // in base, not in after, and after could have seen it
	Appeared    []FindingChange // in after, not in base
	Persisting  []FindingChange // in both
	// NotJudged: in base, not in after, but after could not have seen it
	// (too short, the GPU absent, no host data for a host rule).
	NotJudged []FindingChange
	// Unlike says why the two may not be two runs of one thing (another
	// host, other GPUs): a before/after over different machines measures
	// the machines.
	Unlike []diagnose.Msg
}

// GPUChange pairs one GPU index's figures; Base or After is nil when the GPU
// is in only one report.
type GPUChange struct {
	Index int  `json:"index"`
	Base  *GPU `json:"base"`
	After *GPU `json:"after"`
}

// FindingChange is one (rule, GPU) across the two reports; the side where it
// was not found is nil.
type FindingChange struct {
	Rule  string   `json:"rule"`
	GPU   int      `json:"gpu"`
	Base  *Finding `json:"base"`
	After *Finding `json:"after"`
	Why   string   `json:"why,omitempty"` // for NotJudged: why after could not judge
	// WhyI18n is Why as a message (see diagnose.Finding.I18n).
	WhyI18n *diagnose.Msg `json:"why_i18n,omitempty"`
}

// Compare matches base and after.
func Compare(base, after *Report) *Comparison {
	c := &Comparison{Base: base, After: after, Unlike: unlike(base, after)}
	byIndex := map[int]*GPUChange{}
	var order []int
	get := func(i int) *GPUChange {
		if byIndex[i] == nil {
			byIndex[i] = &GPUChange{Index: i}
			order = append(order, i)
		}
		return byIndex[i]
	}
	for i := range base.GPUs {
		get(base.GPUs[i].Index).Base = &base.GPUs[i]
	}
	for i := range after.GPUs {
		get(after.GPUs[i].Index).After = &after.GPUs[i]
	}
	sort.Ints(order)
	for _, i := range order {
		c.GPUs = append(c.GPUs, *byIndex[i])
	}

	type key struct {
		rule string
		gpu  int
	}
	// The first (worst-ranked) finding per key represents it on each side.
	index := func(fs []Finding) map[key]*Finding {
		m := map[key]*Finding{}
		for i := range fs {
			k := key{fs[i].Rule, fs[i].GPU}
			if m[k] == nil {
				m[k] = &fs[i]
			}
		}
		return m
	}
	inBase, inAfter := index(base.Findings), index(after.Findings)
	for i := range base.Findings {
		f := &base.Findings[i]
		k := key{f.Rule, f.GPU}
		if inBase[k] != f {
			continue
		}
		fc := FindingChange{Rule: f.Rule, GPU: f.GPU, Base: f, After: inAfter[k]}
		if fc.After == nil {
			if why, ok := cannotJudge(after, f); ok {
				fc.Why, fc.WhyI18n = why.English(), &why
				c.NotJudged = append(c.NotJudged, fc)
			} else {
				c.Resolved = append(c.Resolved, fc)
			}
		} else {
			c.Persisting = append(c.Persisting, fc)
		}
	}
	for i := range after.Findings {
		f := &after.Findings[i]
		k := key{f.Rule, f.GPU}
		if inAfter[k] == f && inBase[k] == nil {
			c.Appeared = append(c.Appeared, FindingChange{Rule: f.Rule, GPU: f.GPU, After: f})
		}
	}
	return c
}

// judgeSpan is the least a run must cover before a finding's absence means
// it is gone: the seeds' "observe at least 60 s" ([gpu-idle-handbook] §7.1 step 2),
// which also covers the rules' 30-60 s windows.
const judgeSpan = 60.0 // seconds

// cannotJudge says why after could not have reported f; false when it could.
func cannotJudge(after *Report, f *Finding) (diagnose.Msg, bool) {
	if after.Range.Seconds < judgeSpan {
		return diagnose.Say("compare.short", "after covers {{.Span}}, under the {{.Need}} the rules need",
			"Span", units.Seconds(after.Range.Seconds), "Need", units.Seconds(judgeSpan)), true
	}
	if f.GPU >= 0 && !slices.ContainsFunc(after.GPUs, func(g GPU) bool { return g.Index == f.GPU && g.Samples > 0 }) {
		return diagnose.Say("compare.no_gpu", "GPU {{.GPU}} is not in after", "GPU", f.GPU), true
	}
	if r, _ := diagnose.Lookup(f.Rule); r.NeedsHost && !after.Environment.HostData {
		return diagnose.Say("compare.no_host", "after has no host data (an imported log)"), true
	}
	return diagnose.Msg{}, false
}

// activeGPU is a GPU with work in either run (GPU-Util mean ≥ 5%): the
// verdict's mean leaves out GPUs idle in both, which would dilute a one-GPU
// job on an 8-GPU node to an eighth (5% is above idle noise).
func activeGPU(c *Comparison, index int) bool {
	for _, r := range []*Report{c.Base, c.After} {
		for _, g := range r.GPUs {
			if g.Index == index && g.Util != nil && g.Util.Mean >= 5 {
				return true
			}
		}
	}
	return false
}

// utilMean is the sample-weighted GPU-Util mean over the GPUs keep selects.
func utilMean(r *Report, keep func(index int) bool) sampler.Metric {
	var sum float64
	var n int
	for _, g := range r.GPUs {
		if g.Util != nil && keep(g.Index) {
			sum += g.Util.Mean * float64(g.Util.Samples)
			n += g.Util.Samples
		}
	}
	if n == 0 {
		return sampler.NA
	}
	return sampler.Some(sum / float64(n))
}

// maxVerdictRules bounds the rules named per clause so the verdict stays one
// line (three fit in ~120 columns).
const maxVerdictRules = 3

// Verdict is one line: the GPU-Util change and what happened to findings,
// e.g. "GPU-Util mean 34% → 87% (+53 pts); input_starved resolved on GPU 0;
// no new finding".
func (c *Comparison) Verdict() string { return c.VerdictText().String() }

// VerdictText is Verdict as messages, for a reader in another language.
func (c *Comparison) VerdictText() diagnose.Text {
	keep, label := func(i int) bool { return activeGPU(c, i) }, diagnose.Say("compare.util_mean", "GPU-Util mean")
	n := 0
	for _, gc := range c.GPUs {
		if keep(gc.Index) {
			n++
		}
	}
	switch {
	case n == 0:
		keep = func(int) bool { return true }
	case n < len(c.GPUs):
		label = diagnose.Say("compare.util_mean_busy", "GPU-Util mean of the {{.N}} busy {{plural .N \"GPU\" \"GPUs\"}}", "N", n)
	}
	var parts diagnose.Text
	b, a := utilMean(c.Base, keep), utilMean(c.After, keep)
	if b.OK && a.OK {
		// The change is between the rounded figures, so the line adds up.
		rb, ra := math.Round(b.V), math.Round(a.V)
		parts = append(parts, diagnose.Say("compare.util_change", "{{.Label}} {{.Base}} → {{.After}} ({{.Pts}} pts)", "Label", label,
			"Base", fmt.Sprintf("%.0f%%", rb), "After", fmt.Sprintf("%.0f%%", ra), "Pts", fmt.Sprintf("%+.0f", ra-rb)))
	} else {
		parts = append(parts, diagnose.Say("compare.util_change_na", "{{.Label}} {{.Base}} → {{.After}}", "Label", label,
			"Base", units.Percent(b, 0), "After", units.Percent(a, 0)))
	}
	if len(c.Resolved) > 0 {
		parts = append(parts, changeClause(c.Resolved, false)...)
	}
	if len(c.Appeared) > 0 {
		parts = append(parts, changeClause(c.Appeared, true)...)
	} else {
		parts = append(parts, diagnose.Say("compare.no_new", "no new finding"))
	}
	return parts
}

// changeClause groups changes by rule: "input_starved resolved on GPUs 0, 1"
// (appeared: "appeared on"), the rules after the first as items of its clause.
func changeClause(cs []FindingChange, appeared bool) diagnose.Text {
	var rules []string
	where := map[string][]int{}
	for _, fc := range cs {
		if where[fc.Rule] == nil {
			rules = append(rules, fc.Rule)
		}
		where[fc.Rule] = append(where[fc.Rule], fc.GPU)
	}
	var out diagnose.Text
	for i, r := range rules {
		var m diagnose.Msg
		switch {
		case i == maxVerdictRules && appeared:
			m = diagnose.Say("compare.more_appeared", "{{.N}} more appeared", "N", len(rules)-i)
		case i == maxVerdictRules:
			m = diagnose.Say("compare.more_resolved", "{{.N}} more resolved", "N", len(rules)-i)
		case appeared:
			m = diagnose.Say("compare.appeared", "{{.Rule}} appeared on {{.Where}}", "Rule", r, "Where", gpusText(where[r]))
		default:
			m = diagnose.Say("compare.resolved", "{{.Rule}} resolved on {{.Where}}", "Rule", r, "Where", gpusText(where[r]))
		}
		if i > 0 {
			m.Join = diagnose.Item
		}
		out = append(out, m)
		if i == maxVerdictRules {
			break
		}
	}
	return out
}

func gpusText(gpus []int) diagnose.Msg {
	sort.Ints(gpus)
	if len(gpus) == 1 {
		if gpus[0] < 0 {
			return diagnose.Say("compare.the_node", "the node")
		}
		return diagnose.Say("compare.gpu", "GPU {{.GPU}}", "GPU", gpus[0])
	}
	s := make([]string, len(gpus))
	for i, g := range gpus {
		s[i] = "node"
		if g >= 0 {
			s[i] = fmt.Sprint(g)
		}
	}
	return diagnose.Say("compare.gpus", "GPUs {{.List}}", "List", strings.Join(s, ", "))
}

// unlike lists what says base and after ran on different machines: the
// host (where both name one) and the GPUs (model and count).
func unlike(base, after *Report) []diagnose.Msg {
	var out []diagnose.Msg
	b, a := base.Environment, after.Environment
	if b.Host != "" && a.Host != "" && b.Host != a.Host {
		out = append(out, diagnose.Say("compare.unlike_host", "base ran on {{.Base}}, after on {{.After}}", "Base", b.Host, "After", a.Host))
	}
	if bg, ag := strings.Join(b.GPUModels, ", "), strings.Join(a.GPUModels, ", "); bg != "" && ag != "" && bg != ag {
		out = append(out, diagnose.Say("compare.unlike_gpus", "base had {{.Base}}, after {{.After}}", "Base", bg, "After", ag))
	}
	return out
}
