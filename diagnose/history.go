package diagnose

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// History keeps the snapshots of the last Span, oldest first: the
// Tracker's window.
type History struct {
	Span  time.Duration // zero: DefaultWindow
	snaps []sampler.Snapshot
}

// Push appends a snapshot, drops what fell out of the span, and returns the
// window. The returned slice is valid until the next Push.
func (h *History) Push(s sampler.Snapshot) []sampler.Snapshot {
	span := h.Span
	if span <= 0 {
		span = DefaultWindow
	}
	h.snaps = append(h.snaps, s)
	drop := 0
	for drop < len(h.snaps)-1 && s.Time.Sub(h.snaps[drop].Time) > span {
		drop++
	}
	if drop > 0 {
		// Shift in place so the backing array does not grow without bound.
		n := copy(h.snaps, h.snaps[drop:])
		clear(h.snaps[n:])
		h.snaps = h.snaps[:n]
	}
	return h.snaps
}

// Reset forgets the history (a replay that jumps back in time).
func (h *History) Reset() { h.snaps = h.snaps[:0] }

// restart keeps only the newest snapshot (time went backwards).
func (h *History) restart() []sampler.Snapshot {
	if n := len(h.snaps); n > 1 {
		h.snaps[0] = h.snaps[n-1]
		clear(h.snaps[1:])
		h.snaps = h.snaps[:1]
	}
	return h.snaps
}
