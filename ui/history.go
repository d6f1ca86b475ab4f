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
// the whole snapshots of the newest keep (the node balance's window,
// Options.Window, which the diagnosis holds too), and before them, for the
// rest of the span, one point of fixed-size values per snapshot, made as
// the snapshot leaves keep: the figures the charts, the sparklines and the
// process page draw (histpoint.go). Whole snapshots over five minutes, ~21
// KB each, held 3.8 MB of heap past the diagnosis's window and 6 MB of RSS
// at the span's end (docs/benchmarks.md, "The dashboard's memory: the
// history as figures").
// Index i counts both: the points, then the snapshots. Of the whole
// snapshots but the newest, the host is kept without its process table
// and cores (what the panes read of it is the newest's), and the
// processes as figures (fullProcs): the diagnosis's window drops the same
// readings, so neither holds them (docs/benchmarks.md, "The diagnosis
// window: hosts kept as figures").
type history struct {
	span, gap, keep time.Duration
	pts             []point
	full            []sampler.Snapshot
	fullProcs       [][]procPoint // full[k]'s processes, but the newest's
	spare           point         // the arrays of the last point dropped, reused
	work            []procPoint   // point.set's
	// gen counts the pushes that changed an entry other than the newest
	// (one a second at --interval 100ms): while it is the same, a series
	// over the history differs only in its newest value (drawnSpark.drawSeries).
	gen uint64
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

// push adds s as the newest, or in place of the newest while that is
// within gap of the one before it; drops what fell out of the span and
// turns the snapshots that fell out of keep into points.
func (h *history) push(s sampler.Snapshot) {
	if n := h.len(); n >= 2 && s.Time.Sub(h.time(n-2)) < h.gap && !s.Time.Before(h.time(n-2)) {
		h.full[len(h.full)-1] = s
	} else {
		h.gen++
		if n := len(h.full); n > 0 {
			h.settle(n - 1)
		}
		h.full = append(h.full, s)
		h.fullProcs = append(h.fullProcs, nil)
	}
	drop := 0
	for drop < len(h.pts) && s.Time.Sub(h.pts[drop].Time) >= h.span {
		drop++
	}
	if drop > 0 {
		h.gen++
		h.spare = h.pts[drop-1]
		n := copy(h.pts, h.pts[drop:]) // in place: the array does not grow without bound
		clear(h.pts[n:])
		h.pts = h.pts[:n]
	}
	old := 0
	for old < len(h.full)-1 && (s.Time.Sub(h.full[old].Time) > h.keep || s.Time.Sub(h.full[old].Time) >= h.span) {
		if s.Time.Sub(h.full[old].Time) < h.span { // else dropped
			p := h.spare
			h.spare = point{}
			p.set(&h.full[old], nil)
			p.procs = h.fullProcs[old]
			h.pts = append(h.pts, p)
		}
		old++
	}
	if old > 0 {
		h.gen++
		n := copy(h.full, h.full[old:])
		clear(h.full[n:])
		h.full = h.full[:n]
		copy(h.fullProcs, h.fullProcs[old:])
		clear(h.fullProcs[n:])
		h.fullProcs = h.fullProcs[:n]
	}
}

// settle keeps full[k], no longer the newest, with its processes as
// figures and its host's scalars.
func (h *history) settle(k int) {
	s := &h.full[k]
	var p point
	p.setProcs(s, &h.work)
	h.fullProcs[k] = p.procs
	if s.Host != nil {
		s.Host = s.Host.Scalars()
	}
}

func (h *history) len() int { return len(h.pts) + len(h.full) }

// snap is the i-th entry's whole snapshot, nil where only its point is kept.
func (h *history) snap(i int) *sampler.Snapshot {
	if i < len(h.pts) {
		return nil
	}
	return &h.full[i-len(h.pts)]
}

// time is the i-th entry's time. Out of line, as series: the binary's
// pages (docs/benchmarks.md, "Binary size").
//
//go:noinline
func (h *history) time(i int) time.Time {
	if s := h.snap(i); s != nil {
		return s.Time
	}
	return h.pts[i].Time
}

func (h *history) seq(i int) uint64 {
	if s := h.snap(i); s != nil {
		return s.Seq
	}
	return h.pts[i].Seq
}

// gpu is GPU pos at i: the snapshot's own, or scratch with the point's
// figures (gpuPoint.into); nil where the snapshot had no GPU there.
func (h *history) gpu(i, pos int, scratch *sampler.GPU) *sampler.GPU {
	if s := h.snap(i); s != nil {
		if pos < 0 || pos >= len(s.GPUs) {
			return nil
		}
		return &s.GPUs[pos]
	}
	g := h.pts[i].gpu(pos)
	if g == nil {
		return nil
	}
	g.into(scratch)
	return scratch
}

// proc is pid's figure f (procFigures) at i, n/a where pid was not there.
func (h *history) proc(i, pid, f int) sampler.Metric {
	p := point{}
	if k := i - len(h.pts); k == len(h.full)-1 {
		q := procOf(&h.full[k], pid)
		return q.metric(f)
	} else if k >= 0 {
		p.procs = h.fullProcs[k]
	} else {
		p = h.pts[i]
	}
	if q := p.proc(pid); q != nil {
		return q.metric(f)
	}
	return sampler.Metric{}
}

// last returns the newest snapshot, whole, or nil when empty. Out of
// line: the panes call it in 24 places.
//
//go:noinline
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

// series fills dst with f over the newest n entries (oldest first), for
// sparklines. An n/a reading counts as 0.
//
//go:noinline
func (h *history) series(dst []float64, n int, f func(i int) sampler.Metric) []float64 {
	dst = dst[:0]
	for i := max(0, h.len()-n); i < h.len(); i++ {
		dst = append(dst, f(i).Or(0))
	}
	return dst
}
