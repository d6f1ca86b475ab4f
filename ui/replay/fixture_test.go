package replay

import (
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/node"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/uitest"
	"github.com/muesli/termenv"
)

// t0 is the recordings' clock: fixed so golden files match on every machine.
var t0 = time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)

// demoTimeline is seconds from..to-1 of a simulated scenario at 1 s: the
// same path as `gpuscope record --demo`.
func demoTimeline(scenario string, from, to int) ([]sampler.Snapshot, error) {
	d, err := node.NewDemo(scenario, 1, t0)
	if err != nil {
		return nil, err
	}
	s := d.Sampler(scenario)
	var out []sampler.Snapshot
	for i := from; i < to; i++ {
		out = append(out, s.Tick(t0.Add(time.Duration(i)*time.Second)))
	}
	return out, nil
}

// demo300 is built once: 300 demo ticks cost seconds under -race.
var demo300 = sync.OnceValues(func() ([]sampler.Snapshot, error) { return demoTimeline("mixed", 0, 300) })

// jobsEnd is 150 s of the mixed node, then its jobs end and 150 s of a
// healthy node follow: findings close over the next tens of seconds, so
// what a jump shows depends on the history before it.
var jobsEnd = sync.OnceValues(func() ([]sampler.Snapshot, error) {
	mixed, err := demo300()
	if err != nil {
		return nil, err
	}
	healthy, err := demoTimeline("healthy", 150, 300)
	return append(append([]sampler.Snapshot(nil), mixed[:150]...), healthy...), err
})

func sharedTimeline(t *testing.T) []sampler.Snapshot {
	t.Helper()
	tl, err := demo300()
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func testStyles() themes.Styles {
	lipgloss.SetColorProfile(termenv.Ascii)
	st, err := themes.Build("dark", true)
	if err != nil {
		panic(err)
	}
	return st
}

// uiOptions are main's: the three levels and the checklist from diagnose.
func uiOptions() ui.Options {
	return ui.Options{
		Styles: testStyles(), Badge: "REPLAY", Rules: len(diagnose.Rules),
		Now: func() time.Time { return t0 },
	}
}

// newReplay builds a replay; *last is the tracker of the latest rebuild.
func newReplay(t *testing.T, opts Options, w, h int) (Model, **diagnose.Tracker) {
	t.Helper()
	return newReplayOf(t, sharedTimeline(t), opts, w, h)
}

func newReplayOf(t *testing.T, tl []sampler.Snapshot, opts Options, w, h int) (Model, **diagnose.Tracker) {
	t.Helper()
	last := new(*diagnose.Tracker)
	opts.UI = uiOptions()
	opts.NewTracker = func() *diagnose.Tracker {
		*last = diagnose.NewViewTracker(diagnose.Options{})
		return *last
	}
	m := New(tl, opts)
	nm, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return nm.(Model), last
}

// press sends each key and lets the seek it started finish, as the
// program runs the command Update returns.
func press(t *testing.T, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		m = finish(uitest.Press(m, k))
	}
	return m
}

func tick(m Model) (Model, tea.Cmd) {
	nm, cmd := m.Update(tickMsg{m.gen})
	return finish(nm.(Model)), cmd
}

// finish runs the seek job in flight, and any it leads to, through Update.
func finish(m Model) Model {
	for m.job != nil {
		nm, _ := m.Update(m.job.run())
		m = nm.(Model)
	}
	return m
}
