// Package tracereplay is `gpuscope replay TRACE`: a profiler trace's
// timeline drawn in the terminal, a strip per GPU stream (and rank), time
// across, each column coloured by what the stream ran (compute,
// communication, memory, sync) and as tall as it was busy, with a cursor to
// move and zoom, the event under it, and the trace's findings beside.
//
// It draws from timeline.Strips (diagnose/timeline/strips.go), the
// occupancy downsampled in one pass, published by the loader as it reads:
// the first strips are on screen while a large trace is still being read,
// and no event is held. Zoomed past the strips' resolution, the window is
// read again at full resolution (Options.Detail) while the coarse strips
// stay drawn.
package tracereplay

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gpuscope/gpuscope/diagnose/timeline"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Load is what the loader publishes as it reads: the strips so far (a copy
// the model may keep), and at the end the analysis or the error.
type Load struct {
	Strips *timeline.Strips
	Done   bool
	Report *timeline.Report // with Done, when the analysis succeeded
	Err    error            // with Done, when reading failed
}

// Options configure the model.
type Options struct {
	Styles themes.Styles
	Tr     *i18n.Tr
	Name   string // what the header calls the trace (a base name, safe)
	// Updates carries the loader's Loads, the last with Done.
	Updates <-chan Load
	// Detail reads [from, to) µs of the trace again at full resolution;
	// nil: no detail, the strips' bins are the finest drawn.
	Detail func(ctx context.Context, from, to float64) (*timeline.Strips, error)
}

// Model is the trace's timeline on screen.
type Model struct {
	opts   *Options // shared by every copy: the model is passed by value
	w, h   int
	strips *timeline.Strips
	done   bool
	report *timeline.Report
	err    error
	// view is the window drawn, [v0, v1) µs; zero until the first strips.
	v0, v1 float64
	// cur is the cursor's time, sel the strip it names, top the first
	// strip row shown.
	cur      float64
	sel, top int
	// detail is the window read again, when there is one; asked is the
	// window asked for and cancel stops that read.
	detail *timeline.Strips
	asked  [2]float64
	cancel context.CancelFunc
	gen    int
	fining bool // a detail read is under way
}

// New is the model over a loader's updates.
func New(opts Options) Model { return Model{opts: &opts} }

type loadMsg Load

type detailMsg struct {
	gen    int
	strips *timeline.Strips
	err    error
}

// next waits for the loader's next update.
func (m Model) next() tea.Cmd {
	ch := m.opts.Updates
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		l, ok := <-ch
		if !ok {
			return loadMsg{Done: true}
		}
		return loadMsg(l)
	}
}

// Init starts listening to the loader.
func (m Model) Init() tea.Cmd { return m.next() }

// Err is the loader's error, once done.
func (m Model) Err() error { return m.err }

// Update takes the loader's updates, detail reads, keys and resizes.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		cmd := m.wantDetail()
		return m, cmd
	case loadMsg:
		return m.loaded(Load(msg))
	case detailMsg:
		if msg.gen == m.gen {
			m.fining = false
			if msg.err == nil {
				m.detail = msg.strips
			}
		}
		return m, nil
	case tea.KeyMsg:
		// Keys typed faster than a frame come as one run ("+++"): each counts.
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && strings.Count(string(msg.Runes), string(msg.Runes[0])) == len(msg.Runes) {
			var cmd tea.Cmd
			for range msg.Runes {
				next, c := m.key(string(msg.Runes[0]))
				m = next.(Model)
				if c != nil { // the last read asked for; a later key may find it covers its window
					cmd = c
				}
			}
			return m, cmd
		}
		return m.key(msg.String())
	}
	return m, nil
}

func (m Model) loaded(l Load) (tea.Model, tea.Cmd) {
	if l.Strips != nil {
		whole := m.v0 == 0 && m.v1 == 0
		if !whole {
			f0, f1, _ := m.strips.Span()
			whole = m.v0 <= f0 && m.v1 >= f1 // the whole span shown: keep showing it
		}
		m.strips = l.Strips
		if from, to, ok := m.strips.Span(); ok && whole {
			atStart := m.cur <= m.v0
			m.v0, m.v1 = from, to
			if atStart || m.cur < from || m.cur > to {
				m.cur = from
			}
		}
	}
	if !l.Done {
		return m, m.next()
	}
	m.done, m.report, m.err = true, l.Report, l.Err
	return m, nil
}

func (m Model) key(k string) (tea.Model, tea.Cmd) {
	if m.strips == nil {
		if k == "q" || k == "ctrl+c" || k == "esc" {
			return m, m.quit()
		}
		return m, nil
	}
	col := m.colWidth()
	switch k {
	case "q", "ctrl+c", "esc":
		return m, m.quit()
	case "left", "h":
		m.cur -= col
	case "right", "l":
		m.cur += col
	case "shift+left", "H", "pgup":
		m.cur -= col * 10
	case "shift+right", "L", "pgdown":
		m.cur += col * 10
	case "home", "g":
		m.cur, _, _ = m.strips.Span()
	case "end", "G":
		_, m.cur, _ = m.strips.Span()
	case "up", "k":
		m.sel = max(0, m.sel-1)
	case "down", "j":
		m.sel = min(m.strips.Len()-1, m.sel+1)
	case "+", "=":
		m.zoom(0.5)
	case "-", "_":
		m.zoom(2)
	case "0":
		m.v0, m.v1, _ = m.strips.Span()
	}
	m.follow()
	cmd := m.wantDetail() // before m is copied out: it records what it asked for
	return m, cmd
}

func (m Model) quit() tea.Cmd {
	if m.cancel != nil {
		m.cancel()
	}
	return tea.Quit
}

// zoom scales the window around the cursor, no wider than the trace and
// no narrower than a microsecond a column.
func (m *Model) zoom(f float64) {
	from, to, _ := m.strips.Span()
	bar := float64(max(1, m.barWidth()))
	span := min(to-from, max(bar, (m.v1-m.v0)*f))
	at := (m.cur - m.v0) / (m.v1 - m.v0)
	m.v0 = m.cur - at*span
	m.v1 = m.v0 + span
}

// follow keeps the cursor in the trace and the window on the cursor, and
// the selected strip in view.
func (m *Model) follow() {
	from, to, _ := m.strips.Span()
	m.cur = min(max(m.cur, from), to)
	span := m.v1 - m.v0
	if m.cur < m.v0 {
		m.v0, m.v1 = m.cur, m.cur+span
	}
	if m.cur >= m.v1 {
		m.v1 = m.cur + m.colWidth()
		m.v0 = m.v1 - span
	}
	rows := max(1, m.stripRows())
	if m.sel < m.top {
		m.top = m.sel
	}
	if m.sel >= m.top+rows {
		m.top = m.sel - rows + 1
	}
}

// colWidth is the µs of one column of the bar.
func (m Model) colWidth() float64 {
	return (m.v1 - m.v0) / float64(max(1, m.barWidth()))
}

// wantDetail asks for the window again at full resolution once a column
// is narrower than two of the strips' bins, unless the detail held (or
// asked for) already covers it finely enough.
func (m *Model) wantDetail() tea.Cmd {
	if m.opts.Detail == nil || m.strips == nil || !m.done || m.v1 <= m.v0 {
		return nil
	}
	col := m.colWidth()
	if col >= 2*m.strips.Resolution() {
		return nil
	}
	fine := func(lo, hi float64) bool {
		return lo <= m.v0 && hi >= m.v1 && (hi-lo)/timeline.StripBins <= col/2
	}
	if fine(m.asked[0], m.asked[1]) {
		return nil
	}
	if m.cancel != nil {
		m.cancel()
	}
	span := m.v1 - m.v0
	lo, hi := m.v0-2*span, m.v1+2*span // room to pan before reading again
	m.asked = [2]float64{lo, hi}
	m.gen++
	m.fining = true
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	gen, read := m.gen, m.opts.Detail
	return func() tea.Msg {
		s, err := read(ctx, lo, hi)
		return detailMsg{gen: gen, strips: s, err: err}
	}
}

// drawn is the strips the window is drawn from: the detail where it covers
// the window, else the whole trace's.
func (m Model) drawn() *timeline.Strips {
	if d := m.detail; d != nil {
		if lo, hi, _ := d.Span(); lo <= m.v0 && hi >= m.v1 && m.colWidth() < 2*m.strips.Resolution() {
			return d
		}
	}
	return m.strips
}
