package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gpuscope/gpuscope/sampler"
)

// The charted metrics, all percent 0-100.
const (
	chartUtil = iota
	chartSM
	chartTensor
	chartPowerShare
	chartMetrics
)

var chartNames = [chartMetrics]string{"GPU-Util", "SM active", "tensor active", "power % of limit"}

// chartColors: distinguishable, and the same hue per metric in every chart
// (chosen here: Okabe-Ito colour-blind-safe palette).
var chartColors = [chartMetrics]color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, {0x00, 0x9e, 0x73, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0xcc, 0x79, 0xa7, 0xff},
}

const (
	// maxChartPoints bounds the downsampled series (chosen here: more points
	// than an 18 cm wide chart shows; the issue asks for ~600 per metric).
	maxChartPoints = 600
	// firstBucket is the initial bucket width; it doubles whenever the
	// series would exceed maxChartPoints (chosen here: the tools' 1 s interval).
	firstBucket = time.Second
)

type bucket struct {
	sum [chartMetrics]float64
	n   [chartMetrics]uint32
}

// series is a time-bucketed average of the charted metrics, built while
// streaming without knowing the final length: when full, adjacent buckets
// merge pairwise and the width doubles, so memory stays at maxChartPoints.
type series struct {
	start   time.Time
	width   time.Duration
	buckets []bucket
}

func (s *series) add(t time.Time, vals [chartMetrics]sampler.Metric) {
	if s.width == 0 {
		s.start, s.width = t, firstBucket
	}
	i := 0
	if t.After(s.start) {
		i = int(t.Sub(s.start) / s.width)
		for i >= maxChartPoints {
			s.halve()
			i = int(t.Sub(s.start) / s.width)
		}
	}
	for len(s.buckets) <= i {
		s.buckets = append(s.buckets, bucket{})
	}
	b := &s.buckets[i]
	for m, v := range vals {
		if v.OK && !math.IsNaN(v.V) && !math.IsInf(v.V, 0) { // plotter rejects NaN
			b.sum[m] += v.V
			b.n[m]++
		}
	}
}

func (s *series) halve() {
	n := (len(s.buckets) + 1) / 2
	for i := range n {
		merged := s.buckets[2*i]
		if 2*i+1 < len(s.buckets) {
			o := &s.buckets[2*i+1]
			for m := range merged.sum {
				merged.sum[m] += o.sum[m]
				merged.n[m] += o.n[m]
			}
		}
		s.buckets[i] = merged
	}
	clear(s.buckets[n:])
	s.buckets = s.buckets[:n]
	s.width *= 2
}

// points returns metric m as (minutes since start, mean %) per bucket that
// has a reading; nil when the metric was never present.
func (s *series) points(m int) plotter.XYs {
	var xy plotter.XYs
	for i, b := range s.buckets {
		if b.n[m] == 0 {
			continue
		}
		mid := (time.Duration(i)*s.width + s.width/2).Minutes()
		xy = append(xy, plotter.XY{X: mid, Y: b.sum[m] / float64(b.n[m])})
	}
	return xy
}

// svgChart draws one GPU's series as an SVG fragment for inline use (no
// XML prolog, no embedded fonts: the viewer's sans-serif is used, so the
// file needs no network and stays small). Labels are static text only:
// names from the input go into the HTML, where the template escapes them.
func svgChart(s *series) ([]byte, error) {
	if s == nil || len(s.buckets) == 0 {
		return nil, nil
	}
	p := plot.New()
	p.X.Label.Text = "minutes since the first sample"
	p.Y.Label.Text = "%"
	p.Y.Min, p.Y.Max = 0, 100
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	for m := range chartMetrics {
		xy := s.points(m)
		if len(xy) == 0 {
			continue
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
