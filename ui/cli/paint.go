package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/term"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/ui"
)

// The terminal modes Bubble Tea v1 sets for tea.WithAltScreen and
// tea.WithMouseCellMotion, in its order (tea.go's Run), and the ones it
// sets back on the way out (tty.go's restoreTerminalState).
const (
	paintEnter = "\x1b[?25l" + "\x1b[?1049h" + "\x1b[2J" + "\x1b[H" + "\x1b[?25l" + "\x1b[?2004h" + "\x1b[?1002h" + "\x1b[?1006h"
	paintLeave = "\x1b[2K\r" + "\x1b[?2004l" + "\x1b[?25h" + "\x1b[?1002l" + "\x1b[?1003l" + "\x1b[?1006l" + "\x1b[?1049l"
)

// screen is where a full-screen program runs: the terminal it reads keys
// from and draws on, and where a panic is told once the terminal is back.
type screen struct {
	in, out *os.File
	stderr  io.Writer
	tty     bool // keys from /dev/tty: the data came through stdin
	// frames, when set, are fed to the program (ui.Feed) rather than read
	// by the model's own commands.
	frames <-chan diagnose.Frame
}

// runPainted runs m (the dashboard, a replay) full-screen with ui.Painter
// writing its frames when they change, where Bubble Tea's renderer would
// wake at frameRate whatever changed (docs/benchmarks.md, "The dashboard's
// cost while it watches, 2026-12-07"). Without a terminal to read keys
// from and draw on it runs under Bubble Tea's renderer as before. A panic
// in m is printed on stderr after the terminal is restored, and exits 1.
func runPainted(m tea.Model, what string, sc screen) error {
	in, out := sc.in, sc.out
	if sc.tty {
		if f, err := os.Open("/dev/tty"); err == nil {
			defer f.Close()
			in = f
		}
	}
	if !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithFPS(frameRate), tea.WithMouseCellMotion(), tea.WithOutput(ui.NewTermWriter(out))}
		if sc.tty {
			opts = append(opts, tea.WithInputTTY()) // says why /dev/tty could not be opened
		}
		p := tea.NewProgram(m, opts...)
		if sc.frames != nil {
			go ui.Feed(p, sc.frames)
		}
		return runProgram(p, what)
	}
	saved, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return fmt.Errorf("%s: raw mode: %w", what, err)
	}
	restored := false
	restore := func() {
		if !restored {
			restored = true
			_, _ = io.WriteString(out, paintLeave)
			_ = term.Restore(int(in.Fd()), saved) // nothing better to do on the way out
		}
	}
	defer restore()
	_, _ = io.WriteString(out, paintEnter)
	// ui.TermWriter writes only the cells of a line that changed, where
	// Bubble Tea v1 rewrites the line (docs/benchmarks.md).
	painter := ui.NewPainter(m, ui.NewTermWriter(out), frameRate)
	p := tea.NewProgram(painter, tea.WithoutRenderer(), tea.WithInput(in))
	stop := make(chan struct{})
	go sendSizes(p, out, stop)
	if sc.frames != nil {
		go ui.Feed(p, sc.frames)
	}
	err = runProgram(p, what)
	close(stop)
	if crash := painter.Panicked(); crash != nil {
		restore()
		// As the Go runtime prints a panic it does not recover.
		fmt.Fprintf(sc.stderr, "gpuscope: %s: panic: %s\n\n%s\n", what, safe.Text(fmt.Sprint(crash.Value)), crash.Stack)
		return exitCode(1)
	}
	return err
}

// sendSizes gives p the terminal's size now and after each SIGWINCH, as
// Bubble Tea does itself when it renders.
func sendSizes(p *tea.Program, out *os.File, stop <-chan struct{}) {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	for {
		if w, h, err := term.GetSize(int(out.Fd())); err == nil {
			p.Send(tea.WindowSizeMsg{Width: w, Height: h})
		}
		select {
		case <-stop:
			return
		case <-winch:
		}
	}
}
