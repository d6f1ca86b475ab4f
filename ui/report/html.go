package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// JSONVersion is the version of the report and compare JSON (docs/report-json.md).
const JSONVersion = 1

// JSON writes the report as one indented JSON object (docs/report-json.md).
func JSON(w io.Writer, r *summary.Report) error {
	out := struct {
		Version int `json:"gpuscope_report"`
		*summary.Report
	}{JSONVersion, r}
	if out.Findings == nil {
		cp := *r
		cp.Findings = []summary.Finding{}
		out.Report = &cp
	}
	return writeJSON(w, "report", out)
}

// htmlT is message id as HTML text.
func (l words) htmlT(id string) string { return htmlText(l.t(id)) }

// html writes one self-contained page: inline CSS, the tables, and per GPU
// an inline SVG chart; nothing is fetched at view time. All text from the
// input goes through htmlText, which escapes as html/template does in text
// and quoted-attribute context; the page is written directly because
// html/template cost ~0.8 MB of the release binary for this one page
// (docs/benchmarks.md, "What each dependency costs").
func (l words) html(w io.Writer, r *summary.Report) error {
	var b strings.Builder
	t := func(id string) string { return l.htmlT(id) }
	lang := "en"
	if l.tr != nil {
		lang = l.tr.Lang()
	}
	file := htmlText(r.File)
	or := func(s string) string {
		if s == "" {
			return "n/a"
		}
		return htmlText(s)
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><title>%s: %s</title>\n<style>%s</style></head><body>\n", htmlText(lang), t("title"), file, pageCSS)
	fmt.Fprintf(&b, "<h1>%s: <code>%s</code></h1>\n<table>\n", t("title"), file)
	row := func(th, td string) { fmt.Fprintf(&b, "<tr><th>%s</th><td>%s</td></tr>\n", th, td) }
	row(t("host"), or(r.Environment.Host))
	row(t("gpus"), or(strings.Join(r.Environment.GPUModels, ", ")))
	if en := l.energyTotal(r); en != "" {
		row(t("energy_label"), htmlText(en))
	}
	row(t("driver"), or(r.Environment.Driver))
	row("CUDA", or(r.Environment.CUDA))
	source := "<code>" + file + "</code>"
	if r.Format != "" {
		source += " (" + htmlText(r.Format) + ")"
	}
	row(t("md.source"), source)
	row(t("range"), htmlText(l.rangeOf(r.Range)))
	b.WriteString("</table>\n")
	for _, a := range r.Absent {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", htmlText(a))
	}
	for _, a := range r.Warnings {
		fmt.Fprintf(&b, "<p class=\"note\">%s %s</p>\n", t("html.warning"), htmlText(a))
	}
	for _, a := range r.Sections {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", htmlText(a))
	}
	if r.Topology != nil {
		fmt.Fprintf(&b, "<h2>%s</h2>\n", t("md.topology"))
		for _, a := range r.Topology.Summary {
			fmt.Fprintf(&b, "<p>%s</p>\n", htmlText(a))
		}
	}
	if idle, lines := l.energyJobs(r); lines != nil {
		fmt.Fprintf(&b, "\n<h2>%s</h2>\n<ul>\n", t("md.energy_jobs_head"))
		for _, s := range append(lines, idle) {
			fmt.Fprintf(&b, "<li>%s</li>\n", htmlText(s))
		}
		b.WriteString("</ul>\n")
	}
	if total, lines := l.gpuHours(r); lines != nil {
		fmt.Fprintf(&b, "\n<h2>%s</h2>\n<ul>\n", t("md.gpu_hours_head"))
		for _, s := range append([]string{total}, lines...) {
			fmt.Fprintf(&b, "<li>%s</li>\n", htmlText(s))
		}
		b.WriteString("</ul>\n")
	}
	fmt.Fprintf(&b, "\n<h2>%s</h2>\n<p class=\"note\">%s</p>\n", t("md.findings_head"), htmlText(l.findingsFrom(r)))
	l.htmlFindings(&b, r)
	fmt.Fprintf(&b, "\n<h2>%s</h2>\n", t("gpus"))
	for i := range r.GPUs {
		g := &r.GPUs[i]
		// Trusted: svgChart writes numbers and escaped static labels (chart.go).
		svg, err := svgChart(g.Chart, gpuBands(g.Chart, r.Findings, g.Index))
		if err != nil {
			return fmt.Errorf("report html: GPU %d: %w", g.Index, err)
		}
		lost := ""
		if g.Lost {
			lost = " — " + t("html.lost")
		}
		fmt.Fprintf(&b, "<h3 id=\"gpu-%d\">GPU %d %s (%s)%s</h3>\n<table>\n", g.Index, g.Index, htmlText(g.Name), htmlText(l.tr.N("report.samples", g.Samples)), lost)
		row(t("gpu_util"), htmlText(l.dist(g.Util)))
		row(t("sm_active"), htmlText(l.dist(g.SMActive)))
		row(t("html.tensor_active"), htmlText(l.dist(g.TensorActive)))
		row(t("mem_peak"), htmlText(l.mem(g)))
		row(t("power_label"), htmlText(l.power(g)))
		row(t("energy_label"), htmlText(l.energy(g)))
		row(t("temp_max"), htmlText(units.Spaced.Celsius(g.TempMax)))
		row(t("throttled"), htmlText(l.throttle(g)))
		b.WriteString("</table>\n")
		if len(svg) > 0 {
			fmt.Fprintf(&b, "<figure>%s<figcaption class=\"note\">%s</figcaption></figure>", svg, t("html.caption"))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n</body></html>\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("report html: %w", err)
	}
	return nil
}

// htmlFindings writes the findings table, or the line saying there are none.
func (l words) htmlFindings(b *strings.Builder, r *summary.Report) {
	if len(r.Findings) == 0 {
		fmt.Fprintf(b, "<p>%s</p>", htmlText(l.mdNone(r)))
		return
	}
	b.WriteString("<table>\n<tr>")
	for _, c := range strings.Split(l.t("html.findings_cols"), " | ") {
		fmt.Fprintf(b, "<th>%s</th>", htmlText(c))
	}
	b.WriteString("</tr>\n")
	for i := range r.Findings {
		f := &r.Findings[i]
		title, evidence, estimated, hint := l.finding(f)
		sev := f.Severity.String()
		fmt.Fprintf(b, "<tr><td class=\"%s\">%s</td><td><code>%s</code><br>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s",
			htmlText(sev), htmlText(l.t("sev."+sev)), htmlText(f.Rule), htmlText(title), htmlText(l.where(f.GPU)), htmlText(pidLabel(f.PID)),
			htmlText(stamp(f.FirstSeen)), htmlText(stamp(f.LastSeen)), htmlText(l.episodes(f)), htmlText(evidence))
		if estimated != "" {
			fmt.Fprintf(b, "<br><i>%s</i>", htmlText(estimated))
		}
		for _, line := range f.Lines {
			fmt.Fprintf(b, "<br><small>%s %s</small>", htmlText(l.t("html.read_from")), htmlText(line))
		}
		fmt.Fprintf(b, "</td><td>%s</td></tr>\n", htmlText(hint))
	}
	b.WriteString("</table>")
}

// htmlEscapes are html/template's replacements in text and quoted
// attributes (its htmlReplacementTable), so the page reads as before.
var htmlEscapes = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;")

// htmlText escapes s for the page's text and quoted attribute values.
//
// Not inlined: a copy at each call site cost the binary; see docs/benchmarks.md,
// "Binary size and the glibc floor".
//
//go:noinline
func htmlText(s string) string { return htmlEscapes.Replace(s) }

const pageCSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}.critical{color:#b00020;font-weight:bold}.warning{color:#a05a00;font-weight:bold}.info{color:#555}
.note{color:#555}svg{width:100%;height:auto}code{background:#f3f3f3;padding:0 .2em}`
