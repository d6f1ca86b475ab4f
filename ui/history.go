package ui

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// History kept for the charts, bounded by time like the diagnosis window
// (which the collector keeps; the dashboard only draws): five
// minutes, what the 300-snapshot ring held at the default 1 s interval (a
// 200-column sparkline shows at most ~160 points). historyGap thins faster
// sampling to about one point a second, the newest point always live.
const (
	historySpan = 5 * time.Minute
	historyGap  = time.Second
)

// history is the dashboard's chart history, oldest first, in two parts:
// the figures the charts and sparklines draw, one point of fixed-size
// values per snapshot over the whole span (histpoint.go), and the whole
// snapshots of the newest keep (the node balance's window, Options.Window),
// which the diagnosis holds too. Whole snapshots over five minutes held
// ~21 KB each, 6 MB of heap and 9 MB of RSS at the span's end
// (docs/benchmarks.md, "The dashboard's memory: the history as figures").
type history struct {
	span, gap, keep time.Duration
	pts             []point
	full            []sampler.Snapshot
	spare           point       // the arrays of the last point dropped, reused
	work            []procPoint // point.set's
}

func newHistory(span, keep time.Duration) *history {
	if span <= 0 {
		span = historySpan
	}
	if keep <= 0 {
		keep = defaultWindow
	}
	return &history{span: span, gap: historyGap, keep: min(keep, span)}
}

// push adds s: its figures as the newest point, or in place of the newest
// while that is within gap of the one before it, and drops what fell out
// of the span (the points) and of keep (the whole snapshots).
func (h *history) push(s sampler.Snapshot) {
	if n := len(h.pts); n >= 2 && s.Time.Sub(h.pts[n-2].Time) < h.gap && !s.Time.Before(h.pts[n-2].Time) {
		h.pts[n-1].set(&s, &h.work)
		h.full[len(h.full)-1] = s
	} else {
		p := h.spare
		h.spare = point{}
		p.set(&s, &h.work)
		h.pts = append(h.pts, p)
		h.full = append(h.full, s)
	}
	drop := 0
	for drop < len(h.pts)-1 && s.Time.Sub(h.pts[drop].Time) >= h.span {
		drop++
	}
	if drop > 0 {
		h.spare = h.pts[drop-1]
		n := copy(h.pts, h.pts[drop:]) // in place: the array does not grow without bound
		clear(h.pts[n:])
		h.pts = h.pts[:n]
	}
	drop = 0
	for drop < len(h.full)-1 && s.Time.Sub(h.full[drop].Time) > h.keep {
		drop++
	}
	if drop > 0 {
		n := copy(h.full, h.full[drop:])
		clear(h.full[n:])
		h.full = h.full[:n]
	}
}

func (h *history) len() int { return len(h.pts) }

// at returns the i-th point, 0 the oldest.
func (h *history) at(i int) *point { return &h.pts[i] }

// last returns the newest snapshot, whole, or nil when empty.
func (h *history) last() *sampler.Snapshot {
	if len(h.full) == 0 {
		return nil
	}
	return &h.full[len(h.full)-1]
}

// since is the whole snapshots taken within d (at most keep) of the newest
// one, oldest first, valid until the next push.
func (h *history) since(d time.Duration) []sampler.Snapshot {
	if len(h.full) == 0 {
		return nil
	}
	cut := h.last().Time.Add(-d)
	first := len(h.full) - 1
	for first > 0 && !h.full[first-1].Time.Before(cut) {
		first--
	}
	return h.full[first:]
}

// series fills dst with f of GPU pos over the newest n points (oldest
// first), for sparklines. A missing GPU or n/a reading counts as 0.
func (h *history) series(dst []float64, n, pos int, f func(g *gpuPoint) sampler.Metric) []float64 {
	dst = dst[:0]
	for i := max(0, len(h.pts)-n); i < len(h.pts); i++ {
		v := 0.0
		if g := h.pts[i].gpu(pos); g != nil {
			v = f(g).Or(0)
		}
		dst = append(dst, v)
	}
	return dst
}
