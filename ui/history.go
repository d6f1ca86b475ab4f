package ui

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// History kept for the charts, bounded by time like the diagnosis window
// (which the collector keeps; the dashboard only draws): five
// minutes, what the 300-snapshot ring held at the default 1 s interval (a
// 200-column sparkline shows at most ~160 points). historyGap thins faster
// sampling to about one point a second, the newest point always live, so the
// memory stays what it was at 1 s (an 8-GPU snapshot with its process tree
// holds ~40 KB; 600 of them put the process over the 30 MB RSS budget).
const (
	historySpan = 5 * time.Minute
	historyGap  = time.Second
)

// history is the dashboard's chart history, oldest first.
type history struct {
	span, gap time.Duration
	buf       []sampler.Snapshot
}

func newHistory(span time.Duration) *history {
	if span <= 0 {
		span = historySpan
	}
	return &history{span: span, gap: historyGap}
}

// push appends s, or replaces the newest point while it is within gap of
// the one before it, and drops what fell out of the span.
func (h *history) push(s sampler.Snapshot) {
	if n := len(h.buf); n >= 2 && s.Time.Sub(h.buf[n-2].Time) < h.gap && !s.Time.Before(h.buf[n-2].Time) {
		h.buf[n-1] = s
	} else {
		h.buf = append(h.buf, s)
	}
	drop := 0
	for drop < len(h.buf)-1 && s.Time.Sub(h.buf[drop].Time) >= h.span {
		drop++
	}
	if drop > 0 {
		n := copy(h.buf, h.buf[drop:]) // in place: the array does not grow without bound
		clear(h.buf[n:])
		h.buf = h.buf[:n]
	}
}

func (h *history) len() int { return len(h.buf) }

// at returns the i-th snapshot, 0 the oldest.
func (h *history) at(i int) *sampler.Snapshot { return &h.buf[i] }

// last returns the newest snapshot, or nil when empty.
func (h *history) last() *sampler.Snapshot {
	if len(h.buf) == 0 {
		return nil
	}
	return &h.buf[len(h.buf)-1]
}

// since is the snapshots taken within d of the newest one, oldest first,
// valid until the next push.
func (h *history) since(d time.Duration) []sampler.Snapshot {
	if len(h.buf) == 0 {
		return nil
	}
	cut := h.last().Time.Add(-d)
	first := len(h.buf) - 1
	for first > 0 && !h.buf[first-1].Time.Before(cut) {
		first--
	}
	return h.buf[first:]
}

// series fills dst with f over the newest n snapshots (oldest first), for
// sparklines. A missing GPU or n/a reading counts as 0.
func (h *history) series(dst []float64, n int, f func(*sampler.Snapshot) sampler.Metric) []float64 {
	dst = dst[:0]
	for i := max(0, len(h.buf)-n); i < len(h.buf); i++ {
		dst = append(dst, f(&h.buf[i]).Or(0))
	}
	return dst
}
