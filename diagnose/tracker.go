package diagnose

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// EvalEvery is how often a live Tracker runs the rules, whatever the
// sampling interval (Options.Every sets another stride): at --interval
// 100ms evaluating every tick cost ten times the CPU for the same verdicts
// (Evaluate was 35 % of the live loop, docs/benchmarks.md). evalSlack lets
// a tick that arrives a little early still be evaluated.
const (
	EvalEvery = time.Second
	evalSlack = 50 * time.Millisecond
)

// Frame is what one snapshot produced: the snapshot and the diagnosis in
// force. Diagnosis is shared between the frames of snapshots that did not
// re-run the rules and between every consumer: treat it, and the
// snapshot's slices and maps, as read-only.
type Frame struct {
	Snapshot  sampler.Snapshot
	Diagnosis *Diagnosis // nil: not diagnosed (history shown only in charts)
}

// Findings are the frame's open findings; none when not diagnosed.
func (f Frame) Findings() []Finding {
	if f.Diagnosis == nil {
		return nil
	}
	return f.Diagnosis.Findings
}

// Diagnosis is what one evaluation made of the window: the findings open,
// and for each GPU (by position in the snapshot) its three levels and the
// checklist marked with its findings and the node-wide ones. It is shared,
// read-only, by every consumer until the next evaluation replaces it.
type Diagnosis struct {
	At       time.Time // the newest snapshot the rules saw
	From     time.Time // the oldest
	Samples  int       // snapshots in the window
	Findings []Finding // ranked (Rank)
	Levels   []Levels  // per GPU position
	// Checklists has one entry per GPU position (one for a node without
	// GPUs): Checklist over the window with that GPU's findings.
	Checklists [][]Step
}

// Span is how much time the window covered, counting the newest sample's
// own interval.
func (d *Diagnosis) Span(interval time.Duration) time.Duration {
	if d == nil || d.Samples == 0 {
		return 0
	}
	return d.At.Sub(d.From) + interval
}

// Tracker is the one diagnosis of a stream of snapshots: a sliding History
// bounded by time and an Engine evaluated at most once per stride
// (Options.Every, EvalEvery by default), and only when a snapshot newer
// than the last evaluated one arrived. The live dashboard, `record`,
// `check`, `report`, replay and the accuracy harness all use it, so they
// agree. It is not safe for concurrent use.
type Tracker struct {
	hist   History
	engine evaluator
	fresh  func() evaluator // a new engine: at start and when replay scrubs back
	every  time.Duration
	views  bool
	thin   bool // Options.Thin
	// viewOrders keep the series the levels and checklists read sorted
	// between evaluations, as the Engine's orders do for the rules: without
	// them those views cost as much as the rules (docs/benchmarks.md,
	// "The dashboard's cost while it watches").
	viewOrders orders
	last       *Diagnosis
}

// evaluator is the hysteresis Engine, or the EvidenceEngine over it.
type evaluator interface {
	evaluate(window []sampler.Snapshot, rows []procRows) []Finding
}

// NewTracker diagnoses over windows of opts.Window (default DefaultWindow)
// every opts.Every, findings only.
func NewTracker(opts Options) *Tracker {
	opts = opts.withDefaults()
	fresh := func() evaluator { return NewEngine(opts) }
	return &Tracker{hist: History{Span: opts.Window}, engine: fresh(), fresh: fresh, every: opts.Every, thin: opts.Thin}
}

// NewViewTracker also computes the three levels and checklists of every GPU
// with each evaluation (Observe), for the dashboard and the exporter.
func NewViewTracker(opts Options) *Tracker {
	t := NewTracker(opts)
	t.views = true
	return t
}

// NewEvidenceTracker is NewTracker whose evaluations also carry the
// evidence findings (evidence.go) of windows without host data: what an
// imported log can show, with its confidence. For report and check, which
// read recordings and other tools' logs alike.
func NewEvidenceTracker(opts Options) *Tracker {
	t := NewTracker(opts)
	t.fresh = func() evaluator { return NewEvidenceEngine(opts) }
	t.engine = t.fresh()
	return t
}

// NewEvidenceViewTracker is NewEvidenceTracker with the levels and
// checklists, for replay.
func NewEvidenceViewTracker(opts Options) *Tracker {
	t := NewEvidenceTracker(opts)
	t.views = true
	return t
}

// Push adds a snapshot and returns the findings open at that moment.
func (t *Tracker) Push(s sampler.Snapshot) []Finding {
	return t.Observe(s).Diagnosis.Findings
}

// Observe adds a snapshot and returns its frame, with the newest
// diagnosis: a new one when the rules ran, else the previous one (the same
// pointer).
func (t *Tracker) Observe(s sampler.Snapshot) Frame {
	return Frame{Snapshot: s, Diagnosis: t.diagnose(s)}
}

// ObserveHistory is Observe for each of snaps, in order, each frame handed
// to fn as it is made, where only the newest frame is shown (the demo's
// pre-rolled minutes before the first screen): the levels and checklists,
// half of an evaluation's cost, are computed for the last frame alone. Its
// frame is the one Observe gives. Handed on one by one, the history's
// diagnoses are not all held at once: the dashboard keeps the newest, and
// its 120 pre-rolled ones were 1.4 MB of the start's peak
// (docs/benchmarks.md, "The dashboard's memory: the peak").
func (t *Tracker) ObserveHistory(snaps []sampler.Snapshot, fn func(Frame)) {
	views := t.views
	for i, s := range snaps {
		last := i == len(snaps)-1
		t.views = views && last
		f := t.Observe(s)
		t.views = views
		if d := t.last; last && views && d != nil && d.Levels == nil {
			// The last snapshot fell inside the stride: the views of the
			// diagnosis in force, over its window, if the history still
			// holds it whole.
			w := t.hist.snaps
			from := 0
			for from < len(w) && w[from].Time.Before(d.From) {
				from++
			}
			to := from
			for to < len(w) && !w[to].Time.After(d.At) {
				to++
			}
			if to-from == d.Samples && d.Samples > 0 {
				v := *d
				t.addViews(&v, w[from:to], t.hist.rows[from:to])
				t.last = &v
				f.Diagnosis = &v
			}
		}
		fn(f)
	}
}

func (t *Tracker) diagnose(s sampler.Snapshot) *Diagnosis {
	if t.thin && t.last != nil && !s.Time.Before(t.last.At) && s.Time.Sub(t.last.At) < t.every-evalSlack {
		return t.last // inside the stride: neither evaluated nor kept
	}
	window := t.hist.Push(s)
	if t.last != nil {
		if s.Time.Before(t.last.At) { // replay scrubbed back: start over
			t.engine = t.fresh()
			window = t.hist.restart()
		} else if s.Time.Sub(t.last.At) < t.every-evalSlack {
			return t.last
		}
	}
	return t.evaluate(window)
}

// Flush runs the rules on the newest snapshot if the stride skipped it, and
// returns the newest diagnosis (nil before the first snapshot): a report
// at a 10 s stride ends on its last snapshot, as check and replay do.
func (t *Tracker) Flush() *Diagnosis {
	if w := t.hist.snaps; t.last != nil && t.last.At.Before(w[len(w)-1].Time) {
		return t.evaluate(w)
	}
	return t.last
}

// evaluate runs the rules over window, the history's, then keeps the
// hosts of its older snapshots as figures (History.seen).
func (t *Tracker) evaluate(window []sampler.Snapshot) *Diagnosis {
	s := &window[len(window)-1]
	d := &Diagnosis{At: s.Time, From: window[0].Time, Samples: len(window), Findings: t.engine.evaluate(window, t.hist.rows)}
	if t.views {
		t.addViews(d, window, t.hist.rows)
	}
	t.hist.seen()
	t.last = d
	return d
}

// addViews gives d, evaluated over window, every GPU's levels and checklist.
func (t *Tracker) addViews(d *Diagnosis, window []sampler.Snapshot, rows []procRows) {
	t.viewOrders.rows = rows
	s := &window[len(window)-1]
	d.Levels = make([]Levels, len(s.GPUs))
	for i := range s.GPUs {
		d.Levels[i] = threeLevels(window, i, &t.viewOrders)
	}
	d.Checklists = checklists(window, d.Findings, len(s.GPUs), &t.viewOrders)
	t.viewOrders.rows = nil
}

// Last is the newest diagnosis, nil before the first snapshot.
func (t *Tracker) Last() *Diagnosis { return t.last }
