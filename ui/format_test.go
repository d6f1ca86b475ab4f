package ui

import (
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

func TestFmtMetrics(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{units.Percent(sampler.Some(97.6), 0), "98%"},
		{units.Percent(sampler.NA, 0), "n/a"},
		{units.Compact.ByteRate(sampler.Some(1.5 * gib)), "1.5G/s"},
		{units.Compact.ByteRate(sampler.NA), "n/a"},
		{units.Compact.Whole(sampler.Some(61.7), "°C"), "62°C"},
		{fmtUsedTotal(sampler.Some(80*gib), sampler.Some(141*gib)), "80.0/141G"},
		{fmtUsedTotal(sampler.Some(600<<20), sampler.Some(141*gib)), "600M/141G"},
		{fmtUsedTotal(sampler.NA, sampler.Some(141*gib)), "n/a/141G"},
		{fmtUsedTotal(sampler.NA, sampler.NA), "n/a"},
		{units.Percent(sampler.Some(1.25), 1), "1.2%"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestFmtDuration(t *testing.T) {
	for _, tt := range []struct {
		in   time.Duration
		want string
	}{
		{-time.Second, "n/a"}, {0, "0s"}, {45 * time.Second, "45s"}, {12 * time.Minute, "12m"},
		{3*time.Hour + 5*time.Minute, "3h05m"}, {52 * time.Hour, "2d04h"},
	} {
		if got := fmtDuration(tt.in); got != tt.want {
			t.Errorf("fmtDuration(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFmtInterval(t *testing.T) {
	for _, tt := range []struct {
		in   time.Duration
		want string
	}{
		{100 * time.Millisecond, "100ms"}, {time.Second, "1s"}, {1500 * time.Millisecond, "1.5s"},
		{30 * time.Second, "30s"}, {time.Minute, "1m"}, {0, "n/a"},
	} {
		if got := fmtInterval(tt.in); got != tt.want {
			t.Errorf("fmtInterval(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTruncateAndPad(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{truncate("python train.py", 8), "python …"},
		{truncate("short", 8), "short"},
		{truncate("abc", 0), ""},
		{truncate("0↔100 swings", 4), "0↔1…"},
		{padRight("ab", 4), "ab  "},
		{padLeft("ab", 4), "  ab"},
		{padRight("abcdef", 4), "abc…"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	styled := testStyles().Crit.Render("critical finding")
	if w := lipgloss.Width(truncate(styled, 5)); w != 5 {
		t.Errorf("styled truncate width %d, want 5", w)
	}
}

func TestShortGPUName(t *testing.T) {
	for in, want := range map[string]string{
		"NVIDIA H200 141GB HBM3e": "H200", "NVIDIA A100-SXM4-80GB": "A100", "NVIDIA H100 PCIe": "H100",
		"Tesla T4": "T4", "NVIDIA GeForce RTX 4090": "RTX4090", "NVIDIA RTX A6000": "RTXA6000", "": "GPU",
	} {
		if got := shortGPUName(in); got != want {
			t.Errorf("shortGPUName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSparkline(t *testing.T) {
	st := testStyles()
	if got := drawSparkline([]float64{0, 1, 50, 100, 150}, 7, 100, st.Base); got != "   ▁▄██" {
		t.Errorf("sparkline %q", got)
	}
	if got := drawSparkline([]float64{90, 10, 50}, 2, 100, st.Base); got != "▁▄" {
		t.Errorf("keeps the newest: %q", got)
	}
	if drawSparkline(nil, 0, 100, st.Base) != "" {
		t.Error("zero width must be empty")
	}
}

func TestHistoryBoundedByTime(t *testing.T) {
	h := newHistory(3*time.Second, 0)
	if h.last() != nil || h.since(time.Minute) != nil {
		t.Fatal("empty history returned data")
	}
	for i := 0; i < 5; i++ {
		h.push(sampler.Snapshot{Seq: uint64(i), Time: t0.Add(time.Duration(i) * time.Second), GPUs: []sampler.GPU{{Util: sampler.Some(float64(i))}}})
	}
	if h.len() != 3 || h.seq(0) != 2 || h.last().Seq != 4 {
		t.Errorf("len %d oldest %d newest %d; want 3 2 4", h.len(), h.seq(0), h.last().Seq)
	}
	if w := h.since(time.Second); len(w) != 2 || w[0].Seq != 3 {
		t.Errorf("since(1s) = %d snapshots from %d; want 2 from 3", len(w), w[0].Seq)
	}
	var scratch sampler.GPU
	vals := h.series(nil, 2, func(i int) sampler.Metric { return h.gpu(i, 0, &scratch).Util })
	if len(vals) != 2 || vals[0] != 3 || vals[1] != 4 {
		t.Errorf("series = %v", vals)
	}
}

// At 100 ms the history still reaches back its full span (the old ring of
// 300 snapshots held 30 s), thinned to about a point a second with the
// newest point always the newest snapshot.
func TestHistoryThinsFastSampling(t *testing.T) {
	h := newHistory(historySpan, 0)
	const ticks = 4000 // 400 s at 100 ms
	for i := range ticks {
		h.push(sampler.Snapshot{Seq: uint64(i), Time: t0.Add(time.Duration(i) * 100 * time.Millisecond)})
	}
	span := h.last().Time.Sub(h.time(0))
	if span < historySpan-2*time.Second || span >= historySpan {
		t.Errorf("history spans %s, want about %s", span, historySpan)
	}
	if h.last().Seq != ticks-1 {
		t.Errorf("newest point is seq %d, want %d", h.last().Seq, ticks-1)
	}
	if n := h.len(); n > 2*int(historySpan/historyGap)+2 {
		t.Errorf("%d points kept, want about one a second", n)
	}
}
