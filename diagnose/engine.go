package diagnose

import (
	"slices"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Hysteresis settings, stated in time so that a report's 10 s stride opens
// within one stride of the live 1 s loop (docs/ARCHITECTURE.md): a finding
// opens when it matched in most of the recent evaluations and closes when
// it matched in few, so a rule on the edge of its threshold does not
// flicker on the screen (the usual alerting practice: a "for" duration
// before firing, as in Prometheus alerting rules). An evaluation stands
// for the time since the one before, up to the stride (Options.Every), so
// at a 1 s stride every duration below is that many evaluations, as the
// live loop has always counted them, whatever the sampling interval.
const (
	// DefaultWindow is how much history a rule looks at (docs/scenarios.md: 60-120 s).
	DefaultWindow = 120 * time.Second
	// openFor / openShare / openMin: a finding opens once it matched in
	// ≥ 70% of the evaluations of the last 5 s, and those cover at least
	// 3 s. Time is compared to half a stride (a tick that comes a little
	// early or late does not change the count), so a 10 s stride opens at
	// its first match.
	openFor   = 5 * time.Second
	openShare = 0.7
	openMin   = 3 * time.Second
	// closeAfter / closeShare: an open finding closes once it matched in
	// < 30% of the evaluations of the last 30 s, a full 30 s after it opened.
	closeAfter = 30 * time.Second
	closeShare = 0.3
)

// Options configures an Engine and a Tracker.
type Options struct {
	// Window is how much history the rules see (DefaultWindow when zero).
	Window time.Duration
	// Every is the stride: how often a Tracker runs the rules, and the
	// most one evaluation stands for in the Engine's hysteresis (EvalEvery
	// when zero). A report over a day runs them every 10 s.
	Every time.Duration
	// Thin keeps in a Tracker's window only the snapshots it evaluates,
	// about one per stride: at --interval 100ms the rules then see what
	// they see at 1 s (the interval docs/diagnosis-accuracy.md measures), where the
	// full window held ten times the snapshots, cost ten times the CPU per
	// evaluation and ~50 MB (docs/benchmarks.md, "The dashboard's cost
	// while it watches, 2026-12-07"). The live collector's default.
	Thin bool
}

func (o Options) withDefaults() Options {
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.Every <= 0 {
		o.Every = EvalEvery
	}
	return o
}

// Engine evaluates successive windows and keeps findings open or closed with
// hysteresis, so that they do not flap. It is not safe for concurrent use.
type Engine struct {
	window, every time.Duration
	tracked       map[trackKey]*tracked
	last          time.Time // the previous evaluation; zero before the first
	orders        orders    // the window's series kept sorted between evaluations
	words         words     // the findings' English kept between evaluations
	raw           []Finding // the rules' matches of the evaluation before
}

type trackKey struct {
	rule int
	gpu  int
}

// mark is one evaluation's verdict for one finding, and the time it stands
// for (since the evaluation before, up to the stride).
type mark struct {
	at      time.Time
	span    time.Duration
	matched bool
}

type tracked struct {
	f      Finding // latest matched content
	open   bool
	since  time.Time
	marks  []mark // evaluations, oldest first, trimmed to closeAfter
	health bool
	every  time.Duration
}

// NewEngine returns an Engine with no history.
func NewEngine(opts Options) *Engine {
	opts = opts.withDefaults()
	return &Engine{window: opts.Window, every: opts.Every, tracked: make(map[trackKey]*tracked)}
}

// Evaluate takes the newest window (oldest first; history longer than the
// Engine's Window is ignored) and returns the findings now open, ranked.
func (e *Engine) Evaluate(window []sampler.Snapshot) []Finding {
	return e.evaluate(window, nil)
}

// evaluate is Evaluate where the window kept some hosts as figures: rows,
// aligned with window (slim.go).
func (e *Engine) evaluate(window []sampler.Snapshot, rows []procRows) []Finding {
	if len(window) == 0 {
		return nil
	}
	now := window[len(window)-1].Time
	if now.Before(e.last) { // replay scrubbed backwards: history no longer applies
		clear(e.tracked)
		e.last = time.Time{}
	}
	span := e.every
	if !e.last.IsZero() {
		span = min(now.Sub(e.last), e.every)
	}
	e.last = now
	start := len(window) - 1
	for start > 0 && now.Sub(window[start-1].Time) <= e.window {
		start--
	}
	e.orders.rows = nil
	if len(rows) > start {
		e.orders.rows = rows[start:]
	}
	c := newCtxOrders(window[start:], &e.orders)
	c.words = &e.words
	raw := c.evaluate(e.raw[:0])
	e.raw = raw // its findings are copied below: the next evaluation reuses the slice
	e.words.prune()
	for i := range raw {
		f := &raw[i]
		k := trackKey{ruleIndex(f.Rule), f.GPU}
		t := e.tracked[k]
		if t == nil {
			t = &tracked{health: immediate(f.Rule), every: e.every}
			e.tracked[k] = t
		}
		if len(t.marks) > 0 && t.marks[len(t.marks)-1].at.Equal(now) {
			continue // two findings of one rule on one GPU: keep the first (ranked later)
		}
		t.f = *f
		t.marks = append(t.marks, mark{now, span, true})
	}
	var out []Finding // nil while none is open, as before
	for k, t := range e.tracked {
		if n := len(t.marks); n == 0 || !t.marks[n-1].at.Equal(now) {
			t.marks = append(t.marks, mark{now, span, false})
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
			if out == nil {
				out = make([]Finding, 0, len(e.tracked)) // at most one each: no growing
			}
			out = append(out, f)
		}
	}
	Rank(out)
	return slices.Clip(out) // shared by the frame's readers: an append of theirs copies
}

// trim drops marks older than closeAfter but keeps the newest such mark (so
// the kept history provably covers closeAfter) and those shouldOpen reads.
func (t *tracked) trim(now time.Time) {
	drop := 0
	for keep := t.recent(); drop < keep && now.Sub(t.marks[drop+1].at) >= closeAfter; {
		drop++
	}
	if drop > 0 {
		t.marks = append(t.marks[:0], t.marks[drop:]...)
	}
}

// recentSpan is the index of the oldest of the newest marks that cover
// openFor (the newest at least), and the time they cover.
func (t *tracked) recentSpan() (int, time.Duration) {
	i, cover := len(t.marks)-1, t.marks[len(t.marks)-1].span
	for i > 0 && cover < openFor-t.every/2 {
		i--
		cover += t.marks[i].span
	}
	return i, cover
}

func (t *tracked) recent() int {
	i, _ := t.recentSpan()
	return i
}

func (t *tracked) shouldOpen() bool {
	if t.health {
		return t.marks[len(t.marks)-1].matched
	}
	i, cover := t.recentSpan()
	if cover < openMin-t.every/2 {
		return false
	}
	return share(t.marks[i:]) >= openShare
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
