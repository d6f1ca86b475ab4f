package ui

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestDrawSeriesIsDrawOfTheSeries: a sparkline drawn from the history,
// only its newest bar read while the rest is the same, draws what the
// whole series does, at 100 ms through a history that fills, turns its
// snapshots into points and drops them, and when the history is new.
func TestDrawSeriesIsDrawOfTheSeries(t *testing.T) {
	st := testStyles()
	span := time.Minute + 50*time.Millisecond // points dropped between two seconds
	h := newHistory(span, 20*time.Second)
	t0 := time.Date(2026, 12, 7, 6, 0, 0, 0, time.UTC)
	var d [3]drawnSpark
	var buf, want []float64
	util := func(h *history) func(i int) sampler.Metric {
		var scratch sampler.GPU
		return func(i int) sampler.Metric {
			if g := h.gpu(i, 0, &scratch); g != nil {
				return g.Util
			}
			return sampler.NA
		}
	}
	reused := 0
	for i := range 1500 { // 150 s: past the span
		if i == 1200 {
			h = newHistory(span, 20*time.Second) // as the model's reset
		}
		at := t0.Add(time.Duration(i*100+i*37%50) * time.Millisecond) // late by up to 50 ms
		s := sampler.Snapshot{Time: at, Seq: uint64(i), GPUs: make([]sampler.GPU, 1)}
		s.GPUs[0].Util = sampler.Some(float64(i*37%101) * float64(i%3) / 2)
		gen := h.gen
		h.push(s)
		if h.gen == gen {
			reused++
		}
		for k, w := range []int{1, 40, 200} {
			got := d[k].drawSeries(h, w, 100, &st.Accent, &buf, util(h))
			want = h.series(want[:0], w, util(h))
			if exp := drawSparkline(want, w, 100, st.Accent); got != exp {
				t.Fatalf("frame %d, width %d: drew %q, the series draws %q", i, w, got, exp)
			}
		}
	}
	if reused < 1000 {
		t.Fatalf("only %d of 1500 pushes left the older entries as they were", reused)
	}
}
