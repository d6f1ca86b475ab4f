package replay

import (
	"sort"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

// loadPoll is how often the timeline polls a source still loading: four
// times a second moves "loading 37%" smoothly without costing a
// frame's worth of work each time).
const loadPoll = 250 * time.Millisecond

// loadTickMsg polls the loading source.
type loadTickMsg struct{}

// loadState is what the replay knows of a source still loading.
type loadState struct {
	loading  bool    // the source is still being filled
	fraction float64 // of the input read, 0..1; -1 unknown
	err      error   // loading stopped early: shown on its own line
}

// startLoading reads the source's state at construction.
func (m Model) startLoading() Model {
	ls, ok := m.src.(loadingSource)
	if !ok {
		return m
	}
	p := ls.Progress()
	m.load = loadState{loading: !p.Done, fraction: p.Fraction, err: p.Err}
	return m
}

// pollLoad schedules the next poll while the source loads.
func (m Model) pollLoad() tea.Cmd {
	if !m.load.loading {
		return nil
	}
	return tea.Tick(loadPoll, func(time.Time) tea.Msg { return loadTickMsg{} })
}

// onLoadTick takes in how far loading got. At the end: the reader's late
// warnings are shown (a torn last line is found only there), an error
// gets its line, and a timeline that had to be sorted is rebuilt at the
// cursor's time (its indices changed).
func (m Model) onLoadTick() (tea.Model, tea.Cmd) {
	ls, ok := m.src.(loadingSource)
	if !ok || !m.load.loading {
		return m, nil
	}
	p := ls.Progress()
	m.load.fraction = p.Fraction
	if !p.Done {
		return m, m.pollLoad()
	}
	m.load = loadState{fraction: p.Fraction, err: p.Err}
	if len(p.Warnings) > len(m.opts.Warnings) {
		m.opts.Warnings = make([]string, len(p.Warnings))
		for i, w := range p.Warnings {
			m.opts.Warnings[i] = safe.String(w)
		}
		m.warnShown = true
	}
	if p.Sorted {
		t := m.src.Time(min(m.cursor, m.src.Len()-1))
		// whatever it was, it is another snapshot now
		m = m.rebuildAt(sort.Search(m.src.Len(), func(j int) bool { return !m.src.Time(j).Before(t) }))
	}
	m, _ = m.updateInner(m.innerSize())
	return m.reschedule()
}

// Err is why loading the recording stopped before its end (nil when it
// did not): the replay shows what was read, and the command exits
// non-zero after it.
func (m Model) Err() error { return m.load.err }

// Loading says whether the recording is still being read.
func (m Model) Loading() bool { return m.load.loading }

// loadedCells is how many of a bar's n cells stand for what is read: all
// of them once loaded or when the input's size is unknown.
func (m Model) loadedCells(n int) int {
	if !m.load.loading || m.load.fraction < 0 {
		return n
	}
	return min(n, max(1, int(m.load.fraction*float64(n)+0.5)))
}

// loadingText is " · loading 37%" while loading, "" after.
func (m Model) loadingText() string {
	switch {
	case !m.load.loading:
		return ""
	case m.load.fraction < 0:
		return m.say("replay.loading", nil)
	}
	return m.say("replay.loading_percent", map[string]any{"Percent": int(m.load.fraction * 100)})
}

// errRows is the height of the error line: 1 once loading failed, on
// screens tall enough to spare it.
func (m Model) errRows() int {
	if m.load.err != nil && m.h > 2+m.warnRows() {
		return 1
	}
	return 0
}

// errorLine says loading stopped, why, and what is shown, in w cells.
func (m Model) errorLine(w int) string {
	st := m.opts.UI.Styles
	text := m.say("replay.load_stopped", map[string]any{"Err": safe.String(m.load.err.Error()), "Count": m.src.Len()})
	return ansi.Truncate(st.Crit.Render("✗ ")+text, w, "…")
}
