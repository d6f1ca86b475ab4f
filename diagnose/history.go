package diagnose

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// History keeps the snapshots of the last Span, oldest first, for callers
// that feed an Engine tick by tick (record, report, the accuracy harness).
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

// Tracker feeds an Engine tick by tick over a sliding History: what the
// dashboard does, for callers without a screen (record, the accuracy harness).
type Tracker struct {
	hist   History
	engine *Engine
}

// NewTracker diagnoses over windows of opts.Window (default DefaultWindow).
func NewTracker(opts Options) *Tracker {
	return &Tracker{hist: History{Span: opts.Window}, engine: NewEngine(opts)}
}

// Push adds a snapshot and returns the findings open at that moment.
func (t *Tracker) Push(s sampler.Snapshot) []Finding {
	return t.engine.Evaluate(t.hist.Push(s))
}
