package diagnose

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Hysteresis settings: a finding opens when most recent evaluations match
// and closes when few do, so a rule on the edge of its threshold does not
// flicker on the screen (the usual alerting practice: a "for" duration
// before firing, as in Prometheus alerting rules).
const (
	// DefaultWindow is how much history a rule looks at (docs/scenarios.md: 60-120 s).
	DefaultWindow = 120 * time.Second
	// openEvals / openShare: a finding opens once it matched in ≥ 70% of the
	// last 5 evaluations, and at least openMinEvals were seen.
	openEvals    = 5
	openShare    = 0.7
	openMinEvals = 3
	// closeAfter / closeShare: an open finding closes once it matched in
	// < 30% of the evaluations of the last 30 s, a full 30 s after it opened.
	closeAfter = 30 * time.Second
	closeShare = 0.3
)

// Options configures an Engine.
type Options struct {
	// Window is how much history the rules see (DefaultWindow when zero).
	Window time.Duration
}

// Engine evaluates successive windows and keeps findings open or closed with
// hysteresis, so that they do not flap. It is not safe for concurrent use.
type Engine struct {
	window  time.Duration
	tracked map[trackKey]*tracked
	last    time.Time
}

type trackKey struct {
	rule int
	gpu  int
}

// mark is one evaluation's verdict for one finding.
type mark struct {
	at      time.Time
	matched bool
}

type tracked struct {
	f      Finding // latest matched content
	open   bool
	since  time.Time
	marks  []mark // evaluations, oldest first, trimmed to closeAfter
	health bool
}

// NewEngine returns an Engine with no history.
func NewEngine(opts Options) *Engine {
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	return &Engine{window: opts.Window, tracked: make(map[trackKey]*tracked)}
}

// Evaluate takes the newest window (oldest first; history longer than the
// Engine's Window is ignored) and returns the findings now open, ranked.
func (e *Engine) Evaluate(window []sampler.Snapshot) []Finding {
	if len(window) == 0 {
		return nil
	}
	now := window[len(window)-1].Time
	if now.Before(e.last) { // replay scrubbed backwards: history no longer applies
		clear(e.tracked)
	}
	e.last = now
	start := len(window) - 1
	for start > 0 && now.Sub(window[start-1].Time) <= e.window {
		start--
	}
	raw := newCtx(window[start:]).evaluate(nil)
	for i := range raw {
		f := &raw[i]
		k := trackKey{ruleIndex(f.Rule), f.GPU}
		t := e.tracked[k]
		if t == nil {
			t = &tracked{health: healthRule(f.Rule)}
			e.tracked[k] = t
		}
		if len(t.marks) > 0 && t.marks[len(t.marks)-1].at.Equal(now) {
			continue // two findings of one rule on one GPU: keep the first (ranked later)
		}
		t.f = *f
		t.marks = append(t.marks, mark{now, true})
	}
	var out []Finding
	for k, t := range e.tracked {
		if n := len(t.marks); n == 0 || !t.marks[n-1].at.Equal(now) {
			t.marks = append(t.marks, mark{now, false})
		}
		t.trim(now)
		switch {
		case !t.open && t.shouldOpen():
			t.open, t.since = true, now
		case t.open && t.shouldClose(now):
			delete(e.tracked, k)
			continue
		case !t.open && !t.recentMatch(now):
			delete(e.tracked, k) // a pending match that went away
			continue
		}
		if t.open {
			f := t.f
			f.Since = t.since
			f.LastSeen = t.lastMatch()
			out = append(out, f)
		}
	}
	Rank(out)
	return out
}

// trim drops marks older than closeAfter but keeps the newest such mark (so
// the kept history provably covers closeAfter) and at least openEvals.
func (t *tracked) trim(now time.Time) {
	drop := 0
	for drop < len(t.marks)-openEvals && now.Sub(t.marks[drop+1].at) >= closeAfter {
		drop++
	}
	if drop > 0 {
		t.marks = append(t.marks[:0], t.marks[drop:]...)
	}
}

func (t *tracked) shouldOpen() bool {
	if t.health {
		return t.marks[len(t.marks)-1].matched
	}
	recent := t.marks[max(len(t.marks)-openEvals, 0):]
	if len(recent) < openMinEvals {
		return false
	}
	return share(recent) >= openShare
}

func (t *tracked) shouldClose(now time.Time) bool {
	if now.Sub(t.since) < closeAfter || now.Sub(t.marks[0].at) < closeAfter {
		return false
	}
	var inWindow []mark
	for i := range t.marks {
		if now.Sub(t.marks[i].at) <= closeAfter {
			inWindow = t.marks[i:]
			break
		}
	}
	return share(inWindow) < closeShare
}

func (t *tracked) recentMatch(now time.Time) bool {
	return now.Sub(t.lastMatch()) <= closeAfter
}

func (t *tracked) lastMatch() time.Time {
	for i := len(t.marks) - 1; i >= 0; i-- {
		if t.marks[i].matched {
			return t.marks[i].at
		}
	}
	return t.f.LastSeen
}

func share(ms []mark) float64 {
	if len(ms) == 0 {
		return 0
	}
	n := 0
	for _, m := range ms {
		if m.matched {
			n++
		}
	}
	return float64(n) / float64(len(ms))
}
