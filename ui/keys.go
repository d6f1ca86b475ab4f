package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// intervalSteps are the sampling periods +/- move through (within
// sampler.MinInterval..MaxInterval).
var intervalSteps = []time.Duration{
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second, time.Minute,
}

// nextInterval is the step after (dir > 0) or before d; from an off-step d
// it goes to the nearest step in that direction.
func nextInterval(d time.Duration, dir int) time.Duration {
	if dir > 0 {
		for _, s := range intervalSteps {
			if s > d {
				return s
			}
		}
		return intervalSteps[len(intervalSteps)-1]
	}
	for i := len(intervalSteps) - 1; i >= 0; i-- {
		if intervalSteps[i] < d {
			return intervalSteps[i]
		}
	}
	return intervalSteps[0]
}

// handleKey routes a key: global keys first, then the open overlay, then
// the focused pane.
func (m Model) handleKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	c := m.c
	switch k.String() {
	case "ctrl+c", "q":
		return m, tea.Quit
	case "?":
		m.showHelp = !m.showHelp
		return m, nil
	case " ":
		c.paused = !c.paused
		m.header.invalidate()
		return m, nil
	case "+", "=", "-", "_":
		dir := 1
		if k.String() == "-" || k.String() == "_" {
			dir = -1
		}
		c.interval = nextInterval(c.interval, dir)
		if c.opts.SetInterval != nil {
			c.opts.SetInterval(c.interval)
		}
		m.header.invalidate()
		return m, nil
	}
	if m.showHelp {
		if k.String() == "esc" {
			m.showHelp = false
		}
		return m, nil
	}
	if m.detail.open {
		if k.String() == "esc" || k.String() == "backspace" {
			m.detail.open = false
			return m, nil
		}
		m.detail.Update(k)
		return m, nil
	}
	return m.paneKey(k.String()), nil
}

// paneKey handles focus, movement, sorting and enter on the main screen.
func (m Model) paneKey(key string) Model {
	c := m.c
	move := 0
	switch key {
	case "tab", "shift+tab":
		step := focusArea(1)
		if key == "shift+tab" {
			step = focusCount - 1
		}
		c.focus = (c.focus + step) % focusCount
		m.invalidateAll()
		// The side pane follows what the new focus points at.
		if f, ok := m.findings.selected(); ok && c.focus == focusFindings && f.GPU >= 0 {
			m.selectGPU(f.GPU)
		} else if c.focus == focusGPUs {
			m.selectGPU(m.gpus.cursor)
		}
	case "up", "k":
		move = -1
	case "down", "j":
		move = 1
	case "pgup":
		move = -10
	case "pgdown":
		move = 10
	case "s", "S":
		m.procs.cycleSort(key == "S")
	case "enter":
		if f, ok := m.findings.selected(); ok && c.focus == focusFindings {
			m.detail.show(f)
		}
	}
	if move == 0 {
		return m
	}
	switch c.focus {
	case focusGPUs:
		m.gpus.move(move)
		m.selectGPU(m.gpus.cursor)
	case focusFindings:
		m.findings.move(move)
		if f, ok := m.findings.selected(); ok && f.GPU >= 0 {
			m.selectGPU(f.GPU)
		}
	case focusProcs:
		m.procs.move(move)
	}
	return m
}

// selectGPU points the side pane (three levels, checklist) at gpu.
func (m Model) selectGPU(gpu int) {
	if m.c.selGPU != gpu {
		m.c.selGPU = gpu
		m.refreshSide()
	}
}
