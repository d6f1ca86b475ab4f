package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

// figure is one compared number: how to read it from a GPU, show it, and
// show a change in it.
type figure struct {
	key, label string
	get        func(*summary.GPU) sampler.Metric
	show       func(sampler.Metric) string
	delta      func(float64) string
}

func points(d float64) string { return fmt.Sprintf("%+.1f pts", d) }

var figures = []figure{
	{"util_mean", "GPU-Util mean", func(g *summary.GPU) sampler.Metric { return distMean(g.Util) }, pct, points},
	{"util_p5", "GPU-Util p5", func(g *summary.GPU) sampler.Metric { return distPart(g.Util, "p5") }, pct, points},
	{"util_p50", "GPU-Util p50", func(g *summary.GPU) sampler.Metric { return distPart(g.Util, "p50") }, pct, points},
	{"util_p95", "GPU-Util p95", func(g *summary.GPU) sampler.Metric { return distPart(g.Util, "p95") }, pct, points},
	{"sm_active_mean", "SM active mean", func(g *summary.GPU) sampler.Metric { return distMean(g.SMActive) }, pct, points},
	{"tensor_active_mean", "tensor active mean", func(g *summary.GPU) sampler.Metric { return distMean(g.TensorActive) }, pct, points},
	{"mem_peak_bytes", "memory peak", func(g *summary.GPU) sampler.Metric { return g.MemPeak }, gib,
		func(d float64) string { return fmt.Sprintf("%+.1f GiB", d/(1<<30)) }},
	{"power_mean_w", "power mean", func(g *summary.GPU) sampler.Metric { return g.PowerMean }, watts,
		func(d float64) string { return fmt.Sprintf("%+.0f W", d) }},
	{"power_share_mean_pct", "power % of limit", func(g *summary.GPU) sampler.Metric { return g.PowerShareMean }, pct, points},
	{"temp_max_c", "temp max", func(g *summary.GPU) sampler.Metric { return g.TempMax }, celsius,
		func(d float64) string { return fmt.Sprintf("%+.0f °C", d) }},
	{"throttled_seconds", "throttled", func(g *summary.GPU) sampler.Metric { return g.ThrottledSeconds },
		func(m sampler.Metric) string {
			if !m.OK {
				return na
			}
			return dur(m.V)
		},
		func(d float64) string {
			if d < 0 {
				return "-" + dur(-d)
			}
			return "+" + dur(d)
		}},
}

// side reads a figure from a GPU that may be missing.
func side(g *summary.GPU, f figure) sampler.Metric {
	if g == nil {
		return sampler.NA
	}
	return f.get(g)
}

func deltaOf(gc *summary.GPUChange, f figure) sampler.Metric {
	b, a := side(gc.Base, f), side(gc.After, f)
	if !b.OK || !a.OK {
		return sampler.NA
	}
	return sampler.Some(a.V - b.V)
}

func changeName(gc *summary.GPUChange) string {
	for _, g := range []*summary.GPU{gc.After, gc.Base} {
		if g != nil && g.Name != "" {
			return g.Name
		}
	}
	return na
}

// rows yields label, base, after, change for one GPU.
func changeRows(gc *summary.GPUChange) [][4]string {
	out := make([][4]string, 0, len(figures))
	for _, f := range figures {
		change := na
		if d := deltaOf(gc, f); d.OK {
			change = f.delta(d.V)
		}
		out = append(out, [4]string{f.label, f.show(side(gc.Base, f)), f.show(side(gc.After, f)), change})
	}
	return out
}

func findingLine(fc summary.FindingChange) string {
	f := fc.After
	if f == nil {
		f = fc.Base
	}
	s := fmt.Sprintf("%s on %s: %s", fc.Rule, gpuLabel(fc.GPU), f.Title)
	if fc.Why != "" {
		s += " (" + fc.Why + ")"
	}
	if fc.Base != nil && fc.After != nil {
		s += fmt.Sprintf(" (open %s → %s)", dur(fc.Base.OpenSeconds), dur(fc.After.OpenSeconds))
	}
	return s
}

func findingGroups(c *summary.Comparison) []struct {
	title string
	list  []summary.FindingChange
} {
	return []struct {
		title string
		list  []summary.FindingChange
	}{{"resolved", c.Resolved}, {"appeared", c.Appeared}, {"persisting", c.Persisting}, {"not judged", c.NotJudged}}
}

// Text writes the comparison for a terminal.
func CompareText(w io.Writer, c *summary.Comparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "gpuscope compare\nbase   %s  %s\nafter  %s  %s\nverdict: %s\n",
		summary.InputName(c.Base.File), rangeText(c.Base.Range), summary.InputName(c.After.File), rangeText(c.After.Range), c.Verdict())
	for _, gc := range c.GPUs {
		fmt.Fprintf(&b, "\nGPU %d  %s\n", gc.Index, changeName(&gc))
		fmt.Fprintf(&b, "  %-20s %-14s %-14s %s\n", "", "base", "after", "change")
		for _, r := range changeRows(&gc) {
			fmt.Fprintf(&b, "  %-20s %-14s %-14s %s\n", r[0], r[1], r[2], r[3])
		}
	}
	for _, g := range findingGroups(c) {
		fmt.Fprintf(&b, "\nFINDINGS %s (%d)\n", strings.ToUpper(g.title), len(g.list))
		for _, fc := range g.list {
			fmt.Fprintf(&b, "  %s\n", findingLine(fc))
		}
	}
	_, err := io.WriteString(w, safe.Text(b.String())) // file contents: escape control characters
	return err
}

// Markdown writes the comparison as a before/after section for benchmark.md.
func CompareMarkdown(w io.Writer, c *summary.Comparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Comparison\n\n**%s**\n\n| | file | range |\n|---|---|---|\n", md(c.Verdict()))
	fmt.Fprintf(&b, "| base | `%s` | %s |\n", strings.ReplaceAll(summary.InputName(c.Base.File), "`", "'"), md(rangeText(c.Base.Range)))
	fmt.Fprintf(&b, "| after | `%s` | %s |\n", strings.ReplaceAll(summary.InputName(c.After.File), "`", "'"), md(rangeText(c.After.Range)))
	for _, gc := range c.GPUs {
		fmt.Fprintf(&b, "\n## GPU %d %s\n\n| figure | base | after | change |\n|---|---|---|---|\n", gc.Index, md(changeName(&gc)))
		for _, r := range changeRows(&gc) {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r[0], md(r[1]), md(r[2]), md(r[3]))
		}
	}
	b.WriteString("\n## Findings\n")
	for _, g := range findingGroups(c) {
		fmt.Fprintf(&b, "\n%s (%d):\n\n", strings.ToUpper(g.title[:1])+g.title[1:], len(g.list))
		if len(g.list) == 0 {
			b.WriteString("- none\n")
		}
		for _, fc := range g.list {
			fmt.Fprintf(&b, "- %s\n", md(findingLine(fc)))
		}
	}
	_, err := io.WriteString(w, safe.Text(b.String())) // file contents: escape control characters
	return err
}

// JSON writes the comparison (docs/report-json.md).
func CompareJSON(w io.Writer, c *summary.Comparison) error {
	type gpuJSON struct {
		summary.GPUChange
		Delta map[string]sampler.Metric `json:"delta"`
	}
	type sideJSON struct {
		File        string              `json:"file"`
		Format      string              `json:"format,omitempty"`
		Range       summary.Range       `json:"range"`
		Environment summary.Environment `json:"environment"`
	}
	out := struct {
		Version  int                                `json:"gpuscope_compare"`
		Verdict  string                             `json:"verdict"`
		Base     sideJSON                           `json:"base"`
		After    sideJSON                           `json:"after"`
		GPUs     []gpuJSON                          `json:"gpus"`
		Findings map[string][]summary.FindingChange `json:"findings"`
	}{
		Version: JSONVersion, Verdict: c.Verdict(),
		Base:     sideJSON{c.Base.File, c.Base.Format, c.Base.Range, c.Base.Environment},
		After:    sideJSON{c.After.File, c.After.Format, c.After.Range, c.After.Environment},
		GPUs:     []gpuJSON{},
		Findings: map[string][]summary.FindingChange{},
	}
	for _, gc := range c.GPUs {
		g := gpuJSON{GPUChange: gc, Delta: map[string]sampler.Metric{}}
		for _, f := range figures {
			g.Delta[f.key] = deltaOf(&gc, f)
		}
		out.GPUs = append(out.GPUs, g)
	}
	for _, g := range findingGroups(c) {
		out.Findings[strings.ReplaceAll(g.title, " ", "_")] = append([]summary.FindingChange{}, g.list...)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("compare json: %w", err)
	}
	return nil
}
