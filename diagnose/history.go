package diagnose

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// History keeps the snapshots of the last Span, oldest first: the
// Tracker's window. Of those the rules have seen it keeps the hosts as
// figures (slim.go).
type History struct {
	Span  time.Duration // zero: DefaultWindow
	snaps []sampler.Snapshot
	// rows[i] are snaps[i]'s processes' figures once its host is slim;
	// the first slim snapshots are so.
	rows  []procRows
	slim  int
	sm    slimmer
	whole bool // tests: keep every snapshot whole, as the reference
}

// Push appends a snapshot, drops what fell out of the span, and returns the
// window. The returned slice is valid until the next Push.
func (h *History) Push(s sampler.Snapshot) []sampler.Snapshot {
	span := h.Span
	if span <= 0 {
		span = DefaultWindow
	}
	h.snaps = append(h.snaps, s)
	h.rows = append(h.rows, nil)
	drop := 0
	for drop < len(h.snaps)-1 && s.Time.Sub(h.snaps[drop].Time) > span {
		drop++
	}
	if drop > 0 {
		// Shift in place so the backing array does not grow without bound.
		n := copy(h.snaps, h.snaps[drop:])
		clear(h.snaps[n:])
		h.snaps = h.snaps[:n]
		copy(h.rows, h.rows[drop:])
		clear(h.rows[n:])
		h.rows = h.rows[:n]
		h.slim = max(h.slim-drop, 0)
	}
	return h.snaps
}

// seen slims the hosts of every snapshot but the newest: the rules have
// evaluated the window, and will read those snapshots again only as older
// ones.
func (h *History) seen() {
	if h.whole {
		return
	}
	for ; h.slim < len(h.snaps)-1; h.slim++ {
		s := &h.snaps[h.slim]
		s.Host, h.rows[h.slim] = h.sm.slim(s.Host)
	}
}

// Reset forgets the history (a replay that jumps back in time).
func (h *History) Reset() {
	*h = History{Span: h.Span, whole: h.whole}
}

// restart keeps only the newest snapshot (time went backwards).
func (h *History) restart() []sampler.Snapshot {
	if n := len(h.snaps); n > 1 {
		h.snaps[0] = h.snaps[n-1]
		clear(h.snaps[1:])
		h.snaps = h.snaps[:1]
		clear(h.rows)
		h.rows = h.rows[:1]
	}
	h.slim = 0
	return h.snaps
}
