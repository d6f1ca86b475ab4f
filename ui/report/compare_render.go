package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/sampler/units"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// figure is one compared number: how to read it from a GPU, show it, and
// show a change in it.
type figure struct {
	key   string // its JSON name and, as compare.fig.<key>, its label's message
	get   func(*summary.GPU) sampler.Metric
	show  func(sampler.Metric) string
	delta func(float64) string
}

func points(d float64) string { return fmt.Sprintf("%+.1f pts", d) }

// percent is a compared percent: one decimal, as the report's distributions.
func percent(m sampler.Metric) string { return units.Percent(m, 1) }

var figures = []figure{
	{"util_mean", func(g *summary.GPU) sampler.Metric { return distMean(g.Util) }, percent, points},
	{"util_p5", func(g *summary.GPU) sampler.Metric { return distPart(g.Util, "p5") }, percent, points},
	{"util_p50", func(g *summary.GPU) sampler.Metric { return distPart(g.Util, "p50") }, percent, points},
	{"util_p95", func(g *summary.GPU) sampler.Metric { return distPart(g.Util, "p95") }, percent, points},
	{"sm_active_mean", func(g *summary.GPU) sampler.Metric { return distMean(g.SMActive) }, percent, points},
	{"tensor_active_mean", func(g *summary.GPU) sampler.Metric { return distMean(g.TensorActive) }, percent, points},
	{"mem_peak_bytes", func(g *summary.GPU) sampler.Metric { return g.MemPeak }, units.Spaced.GiB,
		func(d float64) string { return fmt.Sprintf("%+.1f GiB", d/(1<<30)) }},
	{"power_mean_w", func(g *summary.GPU) sampler.Metric { return g.PowerMean }, units.Spaced.Watts,
		func(d float64) string { return fmt.Sprintf("%+.0f W", d) }},
	{"power_share_mean_pct", func(g *summary.GPU) sampler.Metric { return g.PowerShareMean }, percent, points},
	{"temp_max_c", func(g *summary.GPU) sampler.Metric { return g.TempMax }, units.Spaced.Celsius,
		func(d float64) string { return fmt.Sprintf("%+.0f °C", d) }},
	{"energy_kwh", func(g *summary.GPU) sampler.Metric { return g.EnergyKWh }, kwh, kwhDelta},
	{"throttled_seconds", func(g *summary.GPU) sampler.Metric { return g.ThrottledSeconds },
		func(m sampler.Metric) string {
			if !m.OK {
				return na
			}
			return units.Seconds(m.V)
		},
		func(d float64) string {
			if d < 0 {
				return "-" + units.Seconds(-d)
			}
			return "+" + units.Seconds(d)
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
func (l words) changeRows(gc *summary.GPUChange) [][4]string {
	out := make([][4]string, 0, len(figures))
	for _, f := range figures {
		change := na
		if d := deltaOf(gc, f); d.OK {
			change = f.delta(d.V)
		}
		out = append(out, [4]string{l.t("compare.fig." + f.key), f.show(side(gc.Base, f)), f.show(side(gc.After, f)), change})
	}
	return out
}

func (l words) findingLine(fc summary.FindingChange) string {
	f := fc.After
	if f == nil {
		f = fc.Base
	}
	title, _, _, _ := l.finding(f)
	s := l.t("compare.finding_on", "Rule", fc.Rule, "Where", l.where(fc.GPU), "Title", title)
	if fc.Why != "" {
		why := fc.Why
		if fc.WhyI18n != nil {
			why = l.tr.Text(diagnose.Text{*fc.WhyI18n}, fc.Why)
		}
		s += l.t("compare.why", "Why", why)
	}
	if fc.Base != nil && fc.After != nil {
		s += l.t("compare.open", "Base", units.Seconds(fc.Base.OpenSeconds), "After", units.Seconds(fc.After.OpenSeconds))
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

// CompareText writes the comparison for a terminal.
func (rr Renderer) CompareText(w io.Writer, c *summary.Comparison) error {
	l := rr.w
	var b strings.Builder
	const lw = 7 // base / after label column, in cells
	fmt.Fprintf(&b, "gpuscope compare\n%s%s  %s\n%s%s  %s\n%s %s\n",
		l.label("compare.base", lw), summary.InputName(c.Base.File), l.rangeOf(c.Base.Range),
		l.label("compare.after", lw), summary.InputName(c.After.File), l.rangeOf(c.After.Range), l.t("compare.verdict"), l.verdict(c))
	if e := l.energyChange(c); e != "" {
		fmt.Fprintf(&b, "%s %s\n", l.label("energy_label", lw), e)
	}
	for _, u := range l.unlike(c) {
		fmt.Fprintf(&b, "%s\n", u)
	}
	for _, gc := range c.GPUs {
		fmt.Fprintf(&b, "\nGPU %d  %s\n", gc.Index, changeName(&gc))
		fmt.Fprintf(&b, "  %s %s %s %s\n", i18n.Pad("", 20), l.label("compare.base", 14), l.label("compare.after", 14), l.t("compare.change"))
		for _, r := range l.changeRows(&gc) {
			fmt.Fprintf(&b, "  %s %-14s %-14s %s\n", i18n.Pad(r[0], 20), r[1], r[2], r[3])
		}
	}
	for _, g := range findingGroups(c) {
		fmt.Fprintf(&b, "\n%s\n", l.t("compare.group_head", "Group", strings.ToUpper(l.t("compare.group."+g.title)), "N", len(g.list)))
		for _, fc := range g.list {
			fmt.Fprintf(&b, "  %s\n", l.findingLine(fc))
		}
	}
	_, err := io.WriteString(w, safe.Text(b.String())) // file contents: escape control characters
	return err
}

// CompareMarkdown writes the comparison as a before/after section for benchmark.md.
func (rr Renderer) CompareMarkdown(w io.Writer, c *summary.Comparison) error {
	l := rr.w
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n**%s**\n\n", l.t("compare.md_title"), md(l.verdict(c)))
	for _, u := range l.unlike(c) {
		fmt.Fprintf(&b, "> %s\n\n", md(u))
	}
	fmt.Fprintf(&b, "%s\n|---|---|---|\n", l.t("compare.md_files"))
	fmt.Fprintf(&b, "| %s | `%s` | %s |\n", l.t("compare.base"), strings.ReplaceAll(summary.InputName(c.Base.File), "`", "'"), md(l.rangeOf(c.Base.Range)))
	fmt.Fprintf(&b, "| %s | `%s` | %s |\n", l.t("compare.after"), strings.ReplaceAll(summary.InputName(c.After.File), "`", "'"), md(l.rangeOf(c.After.Range)))
	if e := l.energyChange(c); e != "" {
		fmt.Fprintf(&b, "\n%s: %s\n", l.t("energy_label"), md(e))
	}
	for _, gc := range c.GPUs {
		fmt.Fprintf(&b, "\n## GPU %d %s\n\n%s\n|---|---|---|---|\n", gc.Index, md(changeName(&gc)), l.t("compare.md_figures"))
		for _, r := range l.changeRows(&gc) {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r[0], md(r[1]), md(r[2]), md(r[3]))
		}
	}
	b.WriteString("\n## " + l.t("md.findings_head") + "\n")
	for _, g := range findingGroups(c) {
		name := l.t("compare.group." + g.title)
		if r := []rune(name); len(r) > 0 {
			name = strings.ToUpper(string(r[:1])) + string(r[1:])
		}
		fmt.Fprintf(&b, "\n%s (%d):\n\n", name, len(g.list))
		if len(g.list) == 0 {
			b.WriteString("- " + l.t("none") + "\n")
		}
		for _, fc := range g.list {
			fmt.Fprintf(&b, "- %s\n", md(l.findingLine(fc)))
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
		File        string               `json:"file"`
		Format      string               `json:"format,omitempty"`
		Range       summary.Range        `json:"range"`
		Environment summary.Environment  `json:"environment"`
		Energy      *summary.EnergyTotal `json:"energy,omitempty"`
	}
	out := struct {
		Version  int                                `json:"gpuscope_compare"`
		Verdict  string                             `json:"verdict"`
		Base     sideJSON                           `json:"base"`
		After    sideJSON                           `json:"after"`
		GPUs     []gpuJSON                          `json:"gpus"`
		Findings map[string][]summary.FindingChange `json:"findings"`
		// Unlike: why the two may be different machines (English).
		Unlike []string `json:"unlike,omitempty"`
	}{
		Version: JSONVersion, Verdict: c.Verdict(),
		Base:     sideJSON{c.Base.File, c.Base.Format, c.Base.Range, c.Base.Environment, c.Base.Energy},
		After:    sideJSON{c.After.File, c.After.Format, c.After.Range, c.After.Environment, c.After.Energy},
		GPUs:     []gpuJSON{},
		Findings: map[string][]summary.FindingChange{},
	}
	for _, u := range c.Unlike {
		out.Unlike = append(out.Unlike, diagnose.Text{u}.String())
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
	return writeJSON(w, "compare", out)
}

// unlike is one warning line per reason the two runs may be different
// machines.
func (l words) unlike(c *summary.Comparison) []string {
	var out []string
	for _, u := range c.Unlike {
		out = append(out, l.t("compare.unlike", "Why", l.tr.Text(diagnose.Text{u}, diagnose.Text{u}.String())))
	}
	return out
}

// energyChange is "1.2 kWh on 8 GPUs → 0.9 kWh on 8 GPUs (-0.3 kWh)": the
// two runs' totals (with their cost where a price was given) and the
// change; "" when neither run has an energy figure.
func (l words) energyChange(c *summary.Comparison) string {
	b, a := c.Base.Energy, c.After.Energy
	if b == nil && a == nil {
		return ""
	}
	side := func(r *summary.Report) string {
		if s := l.energyTotal(r); s != "" {
			return s
		}
		return na
	}
	s := side(c.Base) + " → " + side(c.After)
	if b != nil && a != nil {
		s += " (" + kwhDelta(a.KWh-b.KWh) + ")"
	}
	return s
}
