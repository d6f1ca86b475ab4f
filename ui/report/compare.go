package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// Comparison is a before/after view of two reports: per GPU (matched by
// index) the figures side by side, and the findings that went away, appeared
// or persisted. Findings match on (rule, GPU), not the PID: a rerun of the
// same job gets new PIDs.
type Comparison struct {
	Base, After *Report
	GPUs        []GPUChange
	Resolved    []FindingChange // in base, not in after
	Appeared    []FindingChange // in after, not in base
	Persisting  []FindingChange // in both
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
			c.Resolved = append(c.Resolved, fc)
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

// utilMean is the sample-weighted GPU-Util mean over all GPUs.
func utilMean(r *Report) sampler.Metric {
	var sum float64
	var n int
	for _, g := range r.GPUs {
		if g.Util != nil {
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
// line (chosen here: three fit in ~120 columns).
const maxVerdictRules = 3

// Verdict is one line: the GPU-Util change and what happened to findings,
// e.g. "GPU-Util mean 34% → 87% (+53 pts); input_starved resolved on GPU 0;
// no new finding".
func (c *Comparison) Verdict() string {
	var parts []string
	b, a := utilMean(c.Base), utilMean(c.After)
	if b.OK && a.OK {
		// The change is between the rounded figures, so the line adds up.
		rb, ra := math.Round(b.V), math.Round(a.V)
		parts = append(parts, fmt.Sprintf("GPU-Util mean %.0f%% → %.0f%% (%+.0f pts)", rb, ra, ra-rb))
	} else {
		parts = append(parts, fmt.Sprintf("GPU-Util mean %s → %s", pctInt(b), pctInt(a)))
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
		s[i] = gpuLabel(g)
		if g >= 0 {
			s[i] = fmt.Sprint(g)
		}
	}
	return "GPUs " + strings.Join(s, ", ")
}
