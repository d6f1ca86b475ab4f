package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
)

// Feed sends p the frames of ch as they come, then that ch closed: one
// goroutine for the run, where a command re-armed per frame would run on a
// goroutine Bubble Tea starts for it, two more wake-ups per frame (ten a
// second at --interval 100ms; docs/benchmarks.md, "The dashboard at 100 ms,
// again").
// It returns when ch closes; p.Send returns at once once p has ended.
func Feed(p *tea.Program, ch <-chan diagnose.Frame) {
	for f := range ch {
		p.Send(frameMsg(f))
	}
	p.Send(sourceClosedMsg{})
}
