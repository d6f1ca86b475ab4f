package summary

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

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
}

// Compare matches base and after.
func Compare(base, after *Report) *Comparison {
	c := &Comparison{Base: base, After: after}
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
			if fc.Why = cannotJudge(after, f); fc.Why != "" {
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

// hostRules need host data (CPU, iowait, process tree) to fire at all.
var hostRules = map[string]bool{"input_starved": true, "io_bound": true, "sync_stall": true}

// cannotJudge says why after could not have reported f, or "".
func cannotJudge(after *Report, f *Finding) string {
	if after.Range.Seconds < judgeSpan {
		return fmt.Sprintf("after covers %s, under the %s the rules need", units.Seconds(after.Range.Seconds), units.Seconds(judgeSpan))
	}
	if f.GPU >= 0 && !slices.ContainsFunc(after.GPUs, func(g GPU) bool { return g.Index == f.GPU && g.Samples > 0 }) {
		return fmt.Sprintf("GPU %d is not in after", f.GPU)
	}
	if hostRules[f.Rule] && !after.Environment.HostData {
		return "after has no host data (an imported log)"
	}
	return ""
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
func (c *Comparison) Verdict() string {
	var parts []string
	keep, label := func(i int) bool { return activeGPU(c, i) }, "GPU-Util mean"
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
		label = fmt.Sprintf("GPU-Util mean of the %d busy GPU(s)", n)
	}
	b, a := utilMean(c.Base, keep), utilMean(c.After, keep)
	if b.OK && a.OK {
		// The change is between the rounded figures, so the line adds up.
		rb, ra := math.Round(b.V), math.Round(a.V)
		parts = append(parts, fmt.Sprintf("%s %.0f%% → %.0f%% (%+.0f pts)", label, rb, ra, ra-rb))
	} else {
		parts = append(parts, fmt.Sprintf("%s %s → %s", label, units.Percent(b, 0), units.Percent(a, 0)))
	}
	if len(c.Resolved) > 0 {
		parts = append(parts, changeClause(c.Resolved, "resolved"))
	}
	if len(c.Appeared) > 0 {
		parts = append(parts, changeClause(c.Appeared, "appeared"))
	} else {
		parts = append(parts, "no new finding")
	}
	return strings.Join(parts, "; ")
}

// changeClause groups changes by rule: "input_starved resolved on GPUs 0, 1".
func changeClause(cs []FindingChange, verb string) string {
	var rules []string
	where := map[string][]int{}
	for _, fc := range cs {
		if where[fc.Rule] == nil {
			rules = append(rules, fc.Rule)
		}
		where[fc.Rule] = append(where[fc.Rule], fc.GPU)
	}
	var out []string
	for i, r := range rules {
		if i == maxVerdictRules {
			out = append(out, fmt.Sprintf("%d more %s", len(rules)-i, verb))
			break
		}
		out = append(out, fmt.Sprintf("%s %s on %s", r, verb, gpusText(where[r])))
	}
	return strings.Join(out, ", ")
}

func gpusText(gpus []int) string {
	sort.Ints(gpus)
	if len(gpus) == 1 {
		if gpus[0] < 0 {
			return "the node"
		}
		return fmt.Sprintf("GPU %d", gpus[0])
	}
	s := make([]string, len(gpus))
	for i, g := range gpus {
		s[i] = "node"
		if g >= 0 {
			s[i] = fmt.Sprint(g)
		}
	}
	return "GPUs " + strings.Join(s, ", ")
}
