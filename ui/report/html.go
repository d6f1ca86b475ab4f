package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("report json: %w", err)
	}
	return nil
}

// htmlGPU is one GPU's row and chart for the template.
type htmlGPU struct {
	*summary.GPU
	Mem, Power, Temp, Throttle string
	Util, SM, Tensor           string
	SamplesText                string
	Chart                      template.HTML // svgChart's SVG (chart.go); it escapes its own text
}

// html writes one self-contained page: inline CSS, the tables, and per GPU
// an inline SVG chart; nothing is fetched at view time. All text from the
// input goes through html/template's escaping.
func (l words) html(w io.Writer, r *summary.Report) error {
	data := struct {
		R        *summary.Report
		Range    string
		Models   string
		From     string
		GPUs     []htmlGPU
		Findings []htmlFinding
	}{R: r, Range: l.rangeOf(r.Range), Models: strings.Join(r.Environment.GPUModels, ", "), From: l.findingsFrom(r)}
	for i := range r.GPUs {
		g := &r.GPUs[i]
		svg, err := svgChart(g.Chart, gpuBands(g.Chart, r.Findings, g.Index))
		if err != nil {
			return fmt.Errorf("report html: GPU %d: %w", g.Index, err)
		}
		data.GPUs = append(data.GPUs, htmlGPU{GPU: g, Mem: l.mem(g), Power: l.power(g), Temp: celsius(g.TempMax), Throttle: l.throttle(g),
			Util: l.dist(g.Util), SM: l.dist(g.SMActive), Tensor: l.dist(g.TensorActive),
			SamplesText: l.tr.N("report.samples", g.Samples),
			// Trusted: svgChart writes numbers and escaped static labels (chart.go).
			Chart: template.HTML(svg)})
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		title, evidence, estimated, hint := l.finding(f)
		data.Findings = append(data.Findings, htmlFinding{f, l.where(f.GPU), pidLabel(f.PID), stamp(f.FirstSeen),
			stamp(f.LastSeen), l.episodes(f), title, evidence, estimated, hint})
	}
	page, err := reportPage.Clone()
	if err != nil {
		return fmt.Errorf("report html: %w", err)
	}
	lang := "en"
	if l.tr != nil {
		lang = l.tr.Lang()
	}
	cols := func(id string) []string { return strings.Split(l.t(id), " | ") }
	page.Funcs(template.FuncMap{"t": l.t, "lang": func() string { return lang }, "cols": cols})
	if err := page.Execute(w, data); err != nil {
		return fmt.Errorf("report html: %w", err)
	}
	return nil
}

type htmlFinding struct {
	*summary.Finding
	Where, PIDText, First, Last, Open string
	// The finding's words in the page's language (they shadow the
	// English fields of the same names).
	Title, Evidence, Estimated, Hint string
}

const pageCSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}.critical{color:#b00020;font-weight:bold}.warning{color:#a05a00;font-weight:bold}.info{color:#555}
.note{color:#555}svg{width:100%;height:auto}code{background:#f3f3f3;padding:0 .2em}`

// reportPage is parsed once; each render clones it with its language's t.
var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"t": func(string, ...any) string { return "" }, "lang": func() string { return "en" }, "cols": func(string) []string { return nil },
}).Parse(`<!DOCTYPE html>
<html lang="{{lang}}"><head><meta charset="utf-8"><title>{{t "title"}}: {{.R.File}}</title>
<style>` + pageCSS + `</style></head><body>
<h1>{{t "title"}}: <code>{{.R.File}}</code></h1>
<table>
<tr><th>{{t "host"}}</th><td>{{or .R.Environment.Host "n/a"}}</td></tr>
<tr><th>{{t "gpus"}}</th><td>{{or .Models "n/a"}}</td></tr>
<tr><th>{{t "driver"}}</th><td>{{or .R.Environment.Driver "n/a"}}</td></tr>
<tr><th>CUDA</th><td>{{or .R.Environment.CUDA "n/a"}}</td></tr>
<tr><th>{{t "md.source"}}</th><td><code>{{.R.File}}</code>{{with .R.Format}} ({{.}}){{end}}</td></tr>
<tr><th>{{t "range"}}</th><td>{{.Range}}</td></tr>
</table>
{{range .R.Absent}}<p class="note">{{.}}</p>
{{end}}{{range .R.Warnings}}<p class="note">{{t "html.warning"}} {{.}}</p>
{{end}}{{range .R.Sections}}<p class="note">{{.}}</p>
{{end}}{{with .R.Topology}}<h2>{{t "md.topology"}}</h2>
{{range .Summary}}<p>{{.}}</p>
{{end}}{{end}}
<h2>{{t "md.findings_head"}}</h2>
<p class="note">{{.From}}</p>
{{if .Findings}}<table>
<tr>{{range cols "html.findings_cols"}}<th>{{.}}</th>{{end}}</tr>
{{range .Findings}}<tr><td class="{{.Severity}}">{{t (printf "sev.%s" .Severity)}}</td><td><code>{{.Rule}}</code><br>{{.Title}}</td><td>{{.Where}}</td><td>{{.PIDText}}</td><td>{{.First}}</td><td>{{.Last}}</td><td>{{.Open}}</td><td>{{.Evidence}}{{with .Estimated}}<br><i>{{.}}</i>{{end}}{{range .Lines}}<br><small>{{t "html.read_from"}} {{.}}</small>{{end}}</td><td>{{.Hint}}</td></tr>
{{end}}</table>{{else}}<p>{{t "md.none"}}</p>{{end}}
<h2>{{t "gpus"}}</h2>
{{range .GPUs}}<h3 id="gpu-{{.Index}}">GPU {{.Index}} {{.Name}} ({{.SamplesText}}){{if .Lost}} — {{t "html.lost"}}{{end}}</h3>
<table>
<tr><th>{{t "gpu_util"}}</th><td>{{.Util}}</td></tr>
<tr><th>{{t "sm_active"}}</th><td>{{.SM}}</td></tr>
<tr><th>{{t "html.tensor_active"}}</th><td>{{.Tensor}}</td></tr>
<tr><th>{{t "mem_peak"}}</th><td>{{.Mem}}</td></tr>
<tr><th>{{t "power_label"}}</th><td>{{.Power}}</td></tr>
<tr><th>{{t "temp_max"}}</th><td>{{.Temp}}</td></tr>
<tr><th>{{t "throttled"}}</th><td>{{.Throttle}}</td></tr>
</table>
{{with .Chart}}<figure>{{.}}<figcaption class="note">{{t "html.caption"}}</figcaption></figure>{{end}}
{{end}}
</body></html>
`))
