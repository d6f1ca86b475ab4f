package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
)

// svgEscapes are html.EscapeString's replacements: the html package's
// entity tables, built in its init, cost the release binary ~45 KB.
var svgEscapes = strings.NewReplacer(`<`, "&lt;", `>`, "&gt;", `&`, "&amp;", `'`, "&#39;", `"`, "&#34;")

var chartNames = [summary.ChartMetrics]string{"GPU-Util", "SM active", "tensor active", "power % of limit"}

// chartColors: distinguishable, and the same hue per metric in every chart
// (Okabe-Ito colour-blind-safe palette).
var chartColors = [summary.ChartMetrics]color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, {0x00, 0x9e, 0x73, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0xcc, 0x79, 0xa7, 0xff},
}

// chartBand is one opening of a finding on a GPU, in minutes since the
// series' first sample.
type chartBand struct {
	from, to float64
	label    string
	color    color.NRGBA
}

// bandColors fill a finding's open interval by severity, light enough that
// the lines stay readable over them.
var bandColors = map[diagnose.Severity]color.NRGBA{
	diagnose.Critical: {0xd0, 0x20, 0x30, 0x38},
	diagnose.Warning:  {0xe0, 0x90, 0x00, 0x38},
	diagnose.Info:     {0x80, 0x80, 0x80, 0x28},
}

// gpuBands are the openings of the findings on GPU gpu, placed on s.
func gpuBands(s *summary.Series, findings []summary.Finding, gpu int) []chartBand {
	if s.Empty() {
		return nil
	}
	var out []chartBand
	for i := range findings {
		f := &findings[i]
		if f.GPU != gpu {
			continue
		}
		for _, sp := range f.Spans {
			from, to := sp.From.Sub(s.Start()).Minutes(), sp.To.Sub(s.Start()).Minutes()
			out = append(out, chartBand{from: from, to: max(to, from+1.0/60), label: f.Severity.String() + ": " + f.Rule,
				color: bandColors[f.Severity]})
		}
	}
	return out
}

// Chart geometry, in SVG user units: the SVG scales to the page's width
// (CSS), so these set the proportions (3:1) and the text size relative to
// the plot; the legend has its own column right of the plot, never over
// the lines.
const (
	chartW, chartH     = 960.0, 320.0
	plotLeft, plotTop  = 56.0, 14.0
	plotRight          = chartW - 230 // the legend column starts here
	plotBottom         = chartH - 46
	chartFont          = 13.0
	legendRow          = 18.0
	chartLineWidth     = 2.4
	chartGridColor     = "#d8d8d8"
	chartAxisTextColor = "#333"
)

// svgChart draws one GPU's series as an SVG fragment for inline use (no
// XML prolog, no fonts: the viewer's sans-serif is used, so the file needs
// no network and stays small), with each finding's open intervals as bands
// under the lines, a 0-100 % axis and minutes since the first sample. It
// is written directly: gonum/plot drew the same picture but cost 7.1 MB of
// the release binary, most of it embedded fonts an SVG never uses
// (docs/benchmarks.md, "Binary size"). Labels are static text and rule
// ids, escaped all the same; names from the input go into the HTML, where
// the template escapes them.
func svgChart(s *summary.Series, bands []chartBand) ([]byte, error) {
	if s.Empty() {
		return nil, nil
	}
	var lines [summary.ChartMetrics][]summary.Point
	xMax := 0.0
	for m := range summary.ChartMetrics {
		lines[m] = s.Points(m)
		if n := len(lines[m]); n > 0 {
			xMax = max(xMax, lines[m][n-1].Minutes)
		}
	}
	for _, b := range bands {
		xMax = max(xMax, b.to)
	}
	step := niceStep(xMax / 6)
	xMax = max(step, math.Ceil(xMax/step)*step)
	x := func(min float64) float64 { return plotLeft + (plotRight-plotLeft)*min/xMax }
	y := func(pct float64) float64 {
		return plotBottom - (plotBottom-plotTop)*math.Min(math.Max(pct, 0), 100)/100
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %g %g" font-family="sans-serif" font-size="%g">`, chartW, chartH, chartFont)
	b.WriteString("\n")
	for _, band := range bands {
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="%.3f"/>`+"\n",
			x(band.from), plotTop, math.Max(x(band.to)-x(band.from), 0.5), plotBottom-plotTop, rgb(band.color.R, band.color.G, band.color.B), float64(band.color.A)/255)
	}
	for pct := 0.0; pct <= 100; pct += 25 {
		fmt.Fprintf(&b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="%s"/>`, plotLeft, y(pct), plotRight, y(pct), chartGridColor)
		fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end" dominant-baseline="middle" fill="%s">%g</text>`+"\n", plotLeft-6, y(pct), chartAxisTextColor, pct)
	}
	for t := 0.0; t <= xMax+step/2; t += step {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="%s"/>`, x(t), plotTop, x(t), plotBottom, chartGridColor)
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle" fill="%s">%s</text>`+"\n", x(t), plotBottom+chartFont+4, chartAxisTextColor, strconv.FormatFloat(t, 'f', -1, 64))
	}
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#888"/>`+"\n", plotLeft, plotTop, plotRight-plotLeft, plotBottom-plotTop)
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle" fill="%s">minutes since the first sample</text>`+"\n", (plotLeft+plotRight)/2, chartH-8, chartAxisTextColor)
	fmt.Fprintf(&b, `<text x="14" y="%g" text-anchor="middle" fill="%s" transform="rotate(-90 14 %g)">%%</text>`+"\n", (plotTop+plotBottom)/2, chartAxisTextColor, (plotTop+plotBottom)/2)
	for m, pts := range lines {
		if len(pts) == 0 {
			continue
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="%g" stroke-linejoin="round" points="`, rgb(chartColors[m].R, chartColors[m].G, chartColors[m].B), chartLineWidth)
		for i, p := range pts {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%.1f,%.1f", x(p.Minutes), y(p.Mean))
		}
		b.WriteString(`"/>` + "\n")
	}
	legend(&b, lines, bands)
	b.WriteString("</svg>")
	return b.Bytes(), nil
}

// legend lists each drawn metric and each finding's band once, in the
// column right of the plot.
func legend(b *bytes.Buffer, lines [summary.ChartMetrics][]summary.Point, bands []chartBand) {
	row := plotTop + legendRow/2
	left := plotRight + 16
	for m, pts := range lines {
		if len(pts) == 0 {
			continue
		}
		c := chartColors[m]
		fmt.Fprintf(b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="%g"/>`, left, row, left+22, row, rgb(c.R, c.G, c.B), chartLineWidth*1.5)
		fmt.Fprintf(b, `<text x="%g" y="%g" dominant-baseline="middle">%s</text>`+"\n", left+30, row, svgEscapes.Replace(chartNames[m]))
		row += legendRow
	}
	seen := map[string]bool{}
	for _, band := range bands {
		if seen[band.label] {
			continue
		}
		seen[band.label] = true
		c := band.color
		fmt.Fprintf(b, `<rect x="%g" y="%g" width="22" height="12" fill="%s" fill-opacity="%.3f"/>`, left, row-6, rgb(c.R, c.G, c.B), float64(c.A)/255)
		fmt.Fprintf(b, `<text x="%g" y="%g" dominant-baseline="middle">%s</text>`+"\n", left+30, row, svgEscapes.Replace(band.label))
		row += legendRow
	}
}

// niceStep rounds a raw tick spacing up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func rgb(r, g, b uint8) string { return fmt.Sprintf("#%02x%02x%02x", r, g, b) }
