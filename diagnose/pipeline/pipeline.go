// Package pipeline is gpuscope's one collector (as bottom's collector
// thread): the sampling goroutine takes each snapshot, diagnoses it with the
// single diagnose.Tracker, hands the frame to each sink (the recorder, the
// exporter's state), and publishes it — one plain value per tick — to every
// subscriber (the dashboard). Nothing downstream diagnoses again, so what
// is recorded and exported is what was on screen.
package pipeline

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// Options configure a Collector.
type Options struct {
	// Tracker is the one diagnosis (nil: diagnose.NewViewTracker with the
	// defaults and a thinned window, diagnose.Options.Thin: the
	// dashboard's). `record` passes diagnose.NewTracker,
	// without levels and checklists: it writes only the findings, and those
	// were 22 % of recording a day (-cpuprofile, docs/benchmarks.md).
	Tracker *diagnose.Tracker
	// Sinks take every frame, in order, in the sampling goroutine, before
	// it is published.
	Sinks []Sink
}

// Sink is one place frames leave through: the recorder, the exporter's
// state. An error Take returns is added to that frame's
// Snapshot.Problems as "Name: error", so the screen shows it.
type Sink struct {
	Name string
	Take func(diagnose.Frame) error
}

// Collector owns the sampler's loop and the one Tracker.
type Collector struct {
	s       *sampler.Sampler
	tracker *diagnose.Tracker
	sinks   []Sink

	mu     sync.Mutex
	latest diagnose.Frame
	has    bool
	subs   []chan diagnose.Frame
	done   bool
}

// New builds a collector over s; it samples once Run is called.
func New(s *sampler.Sampler, opts Options) *Collector {
	t := opts.Tracker
	if t == nil {
		t = diagnose.NewViewTracker(diagnose.Options{Thin: true})
	}
	return &Collector{s: s, tracker: t, sinks: opts.Sinks}
}

// Push diagnoses one snapshot, hands it to the sinks, publishes it and
// returns its frame.
// Run calls it for every tick; callers use it directly to seed history (the
// demo's pre-roll) before Run starts. Not for concurrent use with Run.
func (c *Collector) Push(snap sampler.Snapshot) diagnose.Frame {
	return c.take(c.tracker.Observe(snap))
}

// Preroll is Push for each of snaps (history shown before Run starts, as
// the demo's two minutes), each frame handed to fn in turn, with the levels
// and checklists computed for the last frame alone
// (diagnose.Tracker.ObserveHistory): only it is shown. snaps are handed
// over: each is cleared as its frame is handed on, so the pre-roll holds
// one copy of the history, not the whole readings beside the window's
// (whose older hosts are kept as figures: docs/benchmarks.md, "The
// diagnosis window: hosts kept as figures").
func (c *Collector) Preroll(snaps []sampler.Snapshot, fn func(diagnose.Frame)) {
	i := 0
	c.tracker.ObserveHistory(snaps, func(f diagnose.Frame) {
		snaps[i] = sampler.Snapshot{}
		i++
		fn(c.take(f))
	})
}

// take hands f to the sinks, publishes it and returns it. Not inlined:
// Push and Preroll each held a copy (docs/benchmarks.md, "The diagnosis
// window: hosts kept as figures").
//
//go:noinline
func (c *Collector) take(f diagnose.Frame) diagnose.Frame {
	for _, sink := range c.sinks {
		if err := sink.Take(f); err != nil {
			// Clip: the tracker's copy shares the backing array.
			f.Snapshot.Problems = append(slices.Clip(f.Snapshot.Problems), fmt.Sprintf("%s: %v", sink.Name, err))
		}
	}
	c.publish(f)
	return f
}

// Run samples until ctx ends (clock nil: the wall clock), then closes every
// subscription. Run it in one goroutine and wait for it to return.
func (c *Collector) Run(ctx context.Context, clock func() time.Time) {
	defer c.closeSubs()
	c.s.Loop(ctx, clock, func(snap sampler.Snapshot) { c.Push(snap) })
}

// SetInterval changes the sampling interval; a waiting Run wakes at once.
func (c *Collector) SetInterval(d time.Duration) { c.s.SetInterval(d) }

// Latest is the newest frame, false before the first tick.
func (c *Collector) Latest() (diagnose.Frame, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.latest, c.has
}

// Subscribe returns a channel that receives frames from now on. It never
// blocks the collector: a subscriber that is behind finds only the newest
// frame (latest wins). The channel is closed when Run returns.
func (c *Collector) Subscribe() <-chan diagnose.Frame {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan diagnose.Frame, 1)
	if c.done {
		close(ch)
		return ch
	}
	c.subs = append(c.subs, ch)
	return ch
}

func (c *Collector) publish(f diagnose.Frame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.latest, c.has = f, true
	for _, ch := range c.subs {
		offer(ch, f)
	}
}

func (c *Collector) closeSubs() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done = true
	for _, ch := range c.subs {
		close(ch)
	}
	c.subs = nil
}

// offer puts f on ch without blocking, dropping a stale unread frame first.
// Only publish sends, under the lock, so one retry always succeeds.
func offer(ch chan diagnose.Frame, f diagnose.Frame) {
	select {
	case ch <- f:
		return
	default:
	}
	select {
	case <-ch:
	default:
	}
	select {
	case ch <- f:
	default:
	}
}
