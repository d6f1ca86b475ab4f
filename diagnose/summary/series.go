package summary

import (
	"math"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// The charted metrics, all percent 0-100 (the HTML report draws them).
const (
	ChartUtil = iota
	ChartSM
	ChartTensor
	ChartPowerShare
	ChartMetrics
)

const (
	// maxChartPoints bounds the downsampled series (more points
	// than an 18 cm wide chart shows).
	maxChartPoints = 600
	// firstBucket is the initial bucket width; it doubles whenever the
	// series would exceed maxChartPoints (the tools' 1 s interval).
	firstBucket = time.Second
)

type bucket struct {
	Sum [ChartMetrics]float64 `json:"sum"`
	N   [ChartMetrics]uint32  `json:"n"`
}

// Series is a time-bucketed average of the charted metrics, built while
// streaming without knowing the final length: when full, adjacent buckets
// merge pairwise and the width doubles, so memory stays at maxChartPoints.
//
// Its fields are exported for a recording's footer, which keeps it as JSON
// (footer.go); nothing else sets them.
type Series struct {
	From    time.Time     `json:"from"`
	Width   time.Duration `json:"width"`
	Buckets []bucket      `json:"buckets"`
}

func (s *Series) add(t time.Time, vals [ChartMetrics]sampler.Metric) {
	if s.Width == 0 {
		s.From, s.Width = t, firstBucket
	}
	i := 0
	if t.After(s.From) {
		i = int(t.Sub(s.From) / s.Width)
		for i >= maxChartPoints {
			s.halve()
			i = int(t.Sub(s.From) / s.Width)
		}
	}
	for len(s.Buckets) <= i {
		s.Buckets = append(s.Buckets, bucket{})
	}
	b := &s.Buckets[i]
	for m, v := range vals {
		if v.OK && !math.IsNaN(v.V) && !math.IsInf(v.V, 0) { // a chart cannot draw NaN
			b.Sum[m] += v.V
			b.N[m]++
		}
	}
}

func (s *Series) halve() {
	n := (len(s.Buckets) + 1) / 2
	for i := range n {
		merged := s.Buckets[2*i]
		if 2*i+1 < len(s.Buckets) {
			o := &s.Buckets[2*i+1]
			for m := range merged.Sum {
				merged.Sum[m] += o.Sum[m]
				merged.N[m] += o.N[m]
			}
		}
		s.Buckets[i] = merged
	}
	clear(s.Buckets[n:])
	s.Buckets = s.Buckets[:n]
	s.Width *= 2
}

// Start is the time of the first sample: Points' minutes count from it.
func (s *Series) Start() time.Time { return s.From }

// Empty reports whether the series has no bucket (nil included).
func (s *Series) Empty() bool { return s == nil || len(s.Buckets) == 0 }

// Point is one bucket of a metric: minutes since the first sample (the
// bucket's middle) and the mean percent over it.
type Point struct{ Minutes, Mean float64 }

// Points returns metric m per bucket that has a reading; nil when the
// metric was never present.
func (s *Series) Points(m int) []Point {
	var out []Point
	for i, b := range s.Buckets {
		if b.N[m] == 0 {
			continue
		}
		mid := (time.Duration(i)*s.Width + s.Width/2).Minutes()
		out = append(out, Point{Minutes: mid, Mean: b.Sum[m] / float64(b.N[m])})
	}
	return out
}
