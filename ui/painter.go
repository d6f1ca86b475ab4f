package ui

import (
	"io"
	"runtime/debug"
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
//
// A panic in the model's Update or View, or in one of its commands (Init's
// included), is caught here and ends the program (Panicked): Bubble Tea's
// own catch prints it to stdout before the caller has left the alternate
// screen, so restoring the terminal erased it.
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
	crash     *Panic
}

// Panic is a panic caught in the model: its value and the stack where it
// was raised.
type Panic struct {
	Value any
	Stack []byte
}

// paintMsg asks for the frame that waited for the frame period.
type paintMsg struct{}

// NewPainter wraps m, writing its frames to out.
func NewPainter(m tea.Model, out io.Writer, fps int) Painter {
	return Painter{inner: m, s: &paintState{out: out, period: time.Second / time.Duration(max(fps, 1))}}
}

// Panicked is the panic that ended the program, if one did.
func (p Painter) Panicked() *Panic { return p.s.crash }

// Init is the model's, its command guarded. Models build their first
// command in Init and do their work in Update and View.
func (p Painter) Init() tea.Cmd { return guard(p.inner.Init()) }

// Update passes msg to the model, then paints its frame if it changed.
func (p Painter) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	m = p // what Bubble Tea keeps when the model panics
	defer p.s.recover(&cmd)
	if p.s.crash != nil { // quitting: the model may be half-updated
		return p, nil
	}
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case *Panic: // from a command
		p.s.crash = msg
		return p, tea.Quit
	case paintMsg:
		p.s.pending = false
	default:
		if ws, ok := msg.(tea.WindowSizeMsg); ok {
			p.s.w, p.s.h = ws.Width, ws.Height
			p.s.lines = nil // as Bubble Tea's renderer: a resize repaints every line
		}
		p.inner, cmds = update(p.inner, msg)
	}
	return p, tea.Batch(append(cmds, p.s.paint(p.inner))...)
}

// recover, deferred, keeps a panic and makes *cmd quit.
func (s *paintState) recover(cmd *tea.Cmd) {
	if r := recover(); r != nil {
		s.crash, *cmd = &Panic{r, debug.Stack()}, tea.Quit
	}
}

// guard runs cmd, and the commands of a batch it returns, turning a panic
// into a *Panic message. Bubble Tea runs commands on goroutines of its
// own, where the Painter's recover cannot reach. (tea.Sequence's are not
// reached; gpuscope uses none.) Not inlined: each copy of its closures cost
// the binary ~0.6 KB.
//
//go:noinline
func guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = &Panic{r, debug.Stack()}
			}
		}()
		msg = cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			g := make(tea.BatchMsg, len(b))
			for i, c := range b {
				g[i] = guard(c)
			}
			msg = g
		}
		return msg
	}
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
	if lv, ok := m.(lineViewer); ok {
		s.flushLines(lv.ViewLines())
	} else {
		s.flush(m.View())
	}
	return nil
}

// lineViewer is a model that gives its frame as lines, View split at its
// newlines (ui.Model.ViewLines), so the Painter splits no joined copy.
type lineViewer interface{ ViewLines() []string }

// flush writes view as Bubble Tea v1's standard renderer does on the
// alternate screen (standard_renderer.go, flush): the cursor home, each
// line written or skipped when unchanged, the rest of the screen cleared
// when the frame got shorter, the cursor under the last line.
func (s *paintState) flush(view string) { s.flushLines(strings.Split(view, "\n")) }

// flushLines is flush of the view whose lines are lines.
func (s *paintState) flushLines(lines []string) {
	if len(lines) == 1 && lines[0] == "" {
		lines = []string{" "} // an empty view is written as one space
	}
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
	// As a string: ui.TermWriter reduces it without a copy to bytes and
	// back (its WriteString, not its embedded *os.File's).
	_, _ = io.WriteString(s.out, b.String())
	s.lines, s.drawn, s.lastFlush = lines, len(lines), time.Now()
}
