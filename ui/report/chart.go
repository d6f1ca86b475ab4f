package report

import (
	"bytes"
	"fmt"
	"image/color"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

var chartNames = [summary.ChartMetrics]string{"GPU-Util", "SM active", "tensor active", "power % of limit"}

// chartColors: distinguishable, and the same hue per metric in every chart
// (chosen here: Okabe-Ito colour-blind-safe palette).
var chartColors = [summary.ChartMetrics]color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, {0x00, 0x9e, 0x73, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0xcc, 0x79, 0xa7, 0xff},
}

// svgChart draws one GPU's series as an SVG fragment for inline use (no
// XML prolog, no embedded fonts: the viewer's sans-serif is used, so the
// file needs no network and stays small). Labels are static text only:
// names from the input go into the HTML, where the template escapes them.
func svgChart(s *summary.Series) ([]byte, error) {
	if s.Empty() {
		return nil, nil
	}
	p := plot.New()
	p.X.Label.Text = "minutes since the first sample"
	p.Y.Label.Text = "%"
	p.Y.Min, p.Y.Max = 0, 100
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
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
		p.Legend.Add(chartNames[m], l)
	}
	p.Y.Min, p.Y.Max = 0, max(p.Y.Max, 100) // Add fitted the range to the data; keep the 0-100 scale
	c := vgsvg.New(18*vg.Centimeter, 7*vg.Centimeter)
	p.Draw(draw.New(c))
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
