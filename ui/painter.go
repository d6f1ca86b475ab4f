package ui

import (
	"io"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// Painter runs a model under Bubble Tea without its renderer
// (tea.WithoutRenderer) and writes each changed frame itself, when the
// model changed, at most fps frames a second. Bubble Tea v1's renderer
// flushes on a ticker at the frame rate whether or not anything changed:
// at 15 fps its wake-ups were ~17 % of the dashboard's CPU while it
// watched, and the first frame waited up to a tick after it was ready
// (docs/benchmarks.md, "The dashboard's cost while it watches,
// 2026-12-07"). A frame is written as Bubble Tea's alt-screen renderer
// writes it (unchanged lines skipped), so ui.TermWriter reduces it the
// same way. The caller sets the terminal up (raw mode, alternate screen,
// mouse) and sends the window's size: ui/cli/paint.go.
type Painter struct {
	inner tea.Model
	s     *paintState // shared: Bubble Tea copies the model
}

type paintState struct {
	out       io.Writer
	period    time.Duration
	w, h      int
	lines     []string // the lines last written; nil: repaint all
	drawn     int      // how many lines the last frame had
	lastFlush time.Time
	pending   bool // a paintMsg is on its way
}

// paintMsg asks for the frame that waited for the frame period.
type paintMsg struct{}

// NewPainter wraps m, writing its frames to out.
func NewPainter(m tea.Model, out io.Writer, fps int) Painter {
	return Painter{inner: m, s: &paintState{out: out, period: time.Second / time.Duration(max(fps, 1))}}
}

// Init is the model's.
func (p Painter) Init() tea.Cmd { return p.inner.Init() }

// Update passes msg to the model, then paints its frame if it changed.
func (p Painter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	if _, ok := msg.(paintMsg); ok {
		p.s.pending = false
	} else {
		if ws, ok := msg.(tea.WindowSizeMsg); ok {
			p.s.w, p.s.h = ws.Width, ws.Height
			p.s.lines = nil // as Bubble Tea's renderer: a resize repaints every line
		}
		p.inner, cmd = p.inner.Update(msg)
	}
	return p, tea.Batch(cmd, p.s.paint(p.inner))
}

// View is empty: the Painter writes the frames.
func (p Painter) View() string { return "" }

// paint writes m's frame now, or asks for a paintMsg at the end of the
// frame period.
func (s *paintState) paint(m tea.Model) tea.Cmd {
	if s.pending || s.w <= 0 {
		return nil
	}
	if wait := s.period - time.Since(s.lastFlush); wait > 0 {
		s.pending = true
		return tea.Tick(wait, func(time.Time) tea.Msg { return paintMsg{} })
	}
	s.flush(m.View())
	return nil
}

// flush writes view as Bubble Tea v1's standard renderer does on the
// alternate screen (standard_renderer.go, flush): the cursor home, each
// line written or skipped when unchanged, the rest of the screen cleared
// when the frame got shorter, the cursor under the last line.
func (s *paintState) flush(view string) {
	if view == "" {
		view = " "
	}
	lines := strings.Split(view, "\n")
	if s.h > 0 && len(lines) > s.h {
		lines = lines[len(lines)-s.h:]
	}
	if s.lines != nil && slices.Equal(lines, s.lines) {
		return
	}
	var b strings.Builder
	b.WriteString(ansi.CursorHomePosition)
	for i, line := range lines {
		last := i == len(lines)-1
		if i < len(s.lines) && s.lines[i] == line {
			if !last {
				b.WriteByte('\n')
			}
			continue
		}
		if i == 0 && s.lines == nil {
			b.WriteByte('\r')
		}
		w := cellWidth(line)
		if w > s.w {
			line = ansi.Truncate(line, s.w, "")
			w = cellWidth(line)
		}
		if w < s.w {
			line += ansi.EraseLineRight
		}
		b.WriteString(line)
		if !last {
			b.WriteString("\r\n")
		}
	}
	if s.drawn > len(lines) {
		b.WriteString(ansi.EraseScreenBelow)
	}
	b.WriteString(ansi.CursorPosition(0, len(lines)))
	// Write, not io.WriteString: ui.TermWriter's embedded *os.File has a
	// WriteString that would pass the frame by unreduced.
	_, _ = s.out.Write([]byte(b.String()))
	s.lines, s.drawn, s.lastFlush = lines, len(lines), time.Now()
}
