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
	Chart                      template.HTML // gonum's SVG; it escapes its own text
}

// HTML writes one self-contained page: inline CSS, the tables, and per GPU
// an inline SVG chart; nothing is fetched at view time. All text from the
// input goes through html/template's escaping.
func HTML(w io.Writer, r *summary.Report) error {
	data := struct {
		R        *summary.Report
		Range    string
		Models   string
		From     string
		GPUs     []htmlGPU
		Findings []htmlFinding
	}{R: r, Range: rangeText(r.Range), Models: strings.Join(r.Environment.GPUModels, ", "), From: findingsFromText(r)}
	for i := range r.GPUs {
		g := &r.GPUs[i]
		svg, err := svgChart(g.Chart, gpuBands(g.Chart, r.Findings, g.Index))
		if err != nil {
			return fmt.Errorf("report html: GPU %d: %w", g.Index, err)
		}
		data.GPUs = append(data.GPUs, htmlGPU{GPU: g, Mem: memText(g), Power: powerText(g), Temp: celsius(g.TempMax), Throttle: throttleText(g),
			Util: distText(g.Util), SM: distText(g.SMActive), Tensor: distText(g.TensorActive),
			// Trusted: vgsvg writes numbers and our static labels, and escapes text.
			Chart: template.HTML(svg)})
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		data.Findings = append(data.Findings, htmlFinding{f, gpuLabel(f.GPU), pidLabel(f.PID), stamp(f.FirstSeen),
			stamp(f.LastSeen), episodesText(f)})
	}
	if err := reportPage.Execute(w, data); err != nil {
		return fmt.Errorf("report html: %w", err)
	}
	return nil
}

type htmlFinding struct {
	*summary.Finding
	Where, PIDText, First, Last, Open string
}

const pageCSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}.critical{color:#b00020;font-weight:bold}.warning{color:#a05a00;font-weight:bold}.info{color:#555}
.note{color:#555}svg{width:100%;height:auto}code{background:#f3f3f3;padding:0 .2em}`

var reportPage = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>gpuscope report: {{.R.File}}</title>
<style>` + pageCSS + `</style></head><body>
<h1>gpuscope report: <code>{{.R.File}}</code></h1>
<table>
<tr><th>host</th><td>{{or .R.Environment.Host "n/a"}}</td></tr>
<tr><th>GPUs</th><td>{{or .Models "n/a"}}</td></tr>
<tr><th>driver</th><td>{{or .R.Environment.Driver "n/a"}}</td></tr>
<tr><th>CUDA</th><td>{{or .R.Environment.CUDA "n/a"}}</td></tr>
<tr><th>source</th><td><code>{{.R.File}}</code>{{with .R.Format}} ({{.}}){{end}}</td></tr>
<tr><th>range</th><td>{{.Range}}</td></tr>
</table>
{{range .R.Absent}}<p class="note">{{.}}</p>
{{end}}{{range .R.Warnings}}<p class="note">warning: {{.}}</p>
{{end}}{{range .R.Sections}}<p class="note">{{.}}</p>
{{end}}{{with .R.Topology}}<h2>Topology</h2>
{{range .Summary}}<p>{{.}}</p>
{{end}}{{end}}
<h2>Findings</h2>
<p class="note">{{.From}}</p>
{{if .Findings}}<table>
<tr><th>severity</th><th>rule</th><th>where</th><th>PID</th><th>first seen</th><th>last seen</th><th>open</th><th>evidence</th><th>first thing to try</th></tr>
{{range .Findings}}<tr><td class="{{.Severity}}">{{.Severity}}</td><td><code>{{.Rule}}</code><br>{{.Title}}</td><td>{{.Where}}</td><td>{{.PIDText}}</td><td>{{.First}}</td><td>{{.Last}}</td><td>{{.Open}}</td><td>{{.Evidence}}{{with .Estimated}}<br><i>{{.}}</i>{{end}}{{range .Lines}}<br><small>read from {{.}}</small>{{end}}</td><td>{{.Hint}}</td></tr>
{{end}}</table>{{else}}<p>None.</p>{{end}}
<h2>GPUs</h2>
{{range .GPUs}}<h3 id="gpu-{{.Index}}">GPU {{.Index}} {{.Name}} ({{.Samples}} samples){{if .Lost}} — lost{{end}}</h3>
<table>
<tr><th>GPU-Util</th><td>{{.Util}}</td></tr>
<tr><th>SM active</th><td>{{.SM}}</td></tr>
<tr><th>tensor active</th><td>{{.Tensor}}</td></tr>
<tr><th>memory peak</th><td>{{.Mem}}</td></tr>
<tr><th>power</th><td>{{.Power}}</td></tr>
<tr><th>temp max</th><td>{{.Temp}}</td></tr>
<tr><th>throttled</th><td>{{.Throttle}}</td></tr>
</table>
{{with .Chart}}<figure>{{.}}<figcaption class="note">GPU-Util, SM and tensor active and power (% of its limit) over the recording; shaded: when a finding on this GPU was open.</figcaption></figure>{{end}}
{{end}}
</body></html>
`))
