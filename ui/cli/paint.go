package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/term"

	"github.com/gpuscope/gpuscope/ui"
)

// The terminal modes Bubble Tea v1 sets for tea.WithAltScreen and
// tea.WithMouseCellMotion, in its order (tea.go's Run), and the ones it
// sets back on the way out (tty.go's restoreTerminalState).
const (
	paintEnter = "\x1b[?25l" + "\x1b[?1049h" + "\x1b[2J" + "\x1b[H" + "\x1b[?25l" + "\x1b[?2004h" + "\x1b[?1002h" + "\x1b[?1006h"
	paintLeave = "\x1b[2K\r" + "\x1b[?2004l" + "\x1b[?25h" + "\x1b[?1002l" + "\x1b[?1003l" + "\x1b[?1006l" + "\x1b[?1049l"
)

// runPainted runs the dashboard m full-screen with ui.Painter writing its
// frames when they change, where Bubble Tea's renderer would wake at
// frameRate whatever changed (docs/benchmarks.md, "The dashboard's cost
// while it watches, 2026-12-07"). Without a terminal on both stdin and
// stdout it runs under Bubble Tea's renderer as before.
func runPainted(m tea.Model) error {
	in, out := os.Stdin, os.Stdout
	if !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return runProgram(tea.NewProgram(m, tea.WithAltScreen(), tea.WithFPS(frameRate), tea.WithMouseCellMotion(), tea.WithOutput(ui.NewTermWriter(out))), "dashboard")
	}
	saved, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return fmt.Errorf("dashboard: raw mode: %w", err)
	}
	defer term.Restore(int(in.Fd()), saved) //nolint:errcheck // nothing better to do on the way out
	_, _ = io.WriteString(out, paintEnter)
	defer io.WriteString(out, paintLeave) //nolint:errcheck
	// ui.TermWriter writes only the cells of a line that changed, where
	// Bubble Tea v1 rewrites the line (docs/benchmarks.md).
	p := tea.NewProgram(ui.NewPainter(m, ui.NewTermWriter(out), frameRate), tea.WithoutRenderer(), tea.WithInput(in))
	stop := make(chan struct{})
	defer close(stop)
	go sendSizes(p, out, stop)
	return runProgram(p, "dashboard")
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
