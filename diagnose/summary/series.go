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
	sum [ChartMetrics]float64
	n   [ChartMetrics]uint32
}

// Series is a time-bucketed average of the charted metrics, built while
// streaming without knowing the final length: when full, adjacent buckets
// merge pairwise and the width doubles, so memory stays at maxChartPoints.
type Series struct {
	start   time.Time
	width   time.Duration
	buckets []bucket
}

func (s *Series) add(t time.Time, vals [ChartMetrics]sampler.Metric) {
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
		if v.OK && !math.IsNaN(v.V) && !math.IsInf(v.V, 0) { // a chart cannot draw NaN
			b.sum[m] += v.V
			b.n[m]++
		}
	}
}

func (s *Series) halve() {
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

// Start is the time of the first sample: Points' minutes count from it.
func (s *Series) Start() time.Time { return s.start }

// Empty reports whether the series has no bucket (nil included).
func (s *Series) Empty() bool { return s == nil || len(s.buckets) == 0 }

// Point is one bucket of a metric: minutes since the first sample (the
// bucket's middle) and the mean percent over it.
type Point struct{ Minutes, Mean float64 }

// Points returns metric m per bucket that has a reading; nil when the
// metric was never present.
func (s *Series) Points(m int) []Point {
	var out []Point
	for i, b := range s.buckets {
		if b.n[m] == 0 {
			continue
		}
		mid := (time.Duration(i)*s.width + s.width/2).Minutes()
		out = append(out, Point{Minutes: mid, Mean: b.sum[m] / float64(b.n[m])})
	}
	return out
}
