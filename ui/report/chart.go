package report

import (
	"bytes"
	"fmt"
	"image/color"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

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

// Chart geometry: the SVG scales to the page's width (CSS), so these set
// the proportions and the text size relative to the plot; the legend has
// its own column right of the plot, never over the lines.
const (
	chartWidth  = 24 * vg.Centimeter
	chartHeight = 8 * vg.Centimeter
	legendWidth = 5.5 * vg.Centimeter
)

// svgChart draws one GPU's series as an SVG fragment for inline use (no
// XML prolog, no embedded fonts: the viewer's sans-serif is used, so the
// file needs no network and stays small), with each finding's open
// intervals as bands under the lines. Labels are static text and rule ids
// only: names from the input go into the HTML, where the template escapes
// them.
func svgChart(s *summary.Series, bands []chartBand) ([]byte, error) {
	if s.Empty() {
		return nil, nil
	}
	p := plot.New()
	p.X.Label.Text = "minutes since the first sample"
	p.Y.Label.Text = "%"
	p.Y.Min, p.Y.Max = 0, 100
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(3) // entries of rule names read apart
	seen := map[string]bool{}
	for _, b := range bands {
		poly, err := plotter.NewPolygon(plotter.XYs{{X: b.from, Y: 0}, {X: b.to, Y: 0}, {X: b.to, Y: 100}, {X: b.from, Y: 100}})
		if err != nil {
			return nil, fmt.Errorf("chart band %s: %w", b.label, err)
		}
		poly.Color, poly.LineStyle.Width = b.color, 0
		p.Add(poly)
		if !seen[b.label] {
			seen[b.label] = true
			legend.Add(b.label, poly)
		}
	}
	for m := range summary.ChartMetrics {
		pts := s.Points(m)
		if len(pts) == 0 {
			continue
		}
		xy := make(plotter.XYs, len(pts))
		for i, p := range pts {
			xy[i] = plotter.XY{X: p.Minutes, Y: p.Mean}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", chartNames[m], err)
		}
		l.Color = chartColors[m]
		l.Width = vg.Points(1.2)
		p.Add(l)
		legend.Add(chartNames[m], l)
	}
	p.Y.Min, p.Y.Max = 0, max(p.Y.Max, 100) // Add fitted the range to the data; keep the 0-100 scale
	c := vgsvg.New(chartWidth, chartHeight)
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	legend.Draw(draw.Crop(dc, chartWidth-legendWidth+vg.Millimeter*3, 0, 0, -vg.Millimeter*3))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: write svg: %w", err)
	}
	out := buf.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i > 0 {
		out = out[i:] // drop the XML prolog and comment: invalid inside HTML
	}
	// Fonts are not embedded (size): name a generic fallback for viewers
	// without Liberation (text was measured with a serif face).
	out = bytes.ReplaceAll(out, []byte("font-family:Liberation Serif"), []byte("font-family:Liberation Serif,serif"))
	return out, nil
}
