package ui

import (
	"fmt"
	"syscall"
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
	c.status = ""
	if m.confirm != nil { // the dialog takes every key: y confirms, anything else cancels
		m = m.answerConfirm(k.String())
		if k.String() == "ctrl+c" {
			return m, tea.Quit
		}
		return m, nil
	}
	if m.procs.filtering { // typing a filter: letters are text, not commands
		if k.String() == "ctrl+c" {
			return m, tea.Quit
		}
		m.procs.filterKey(k)
		return m, nil
	}
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
	case "r":
		m.toggleRecording()
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
	back := k.String() == "esc" || k.String() == "backspace"
	switch {
	case m.showHelp:
		if k.String() == "esc" {
			m.showHelp = false
		}
	case m.detail.open:
		if back {
			m.detail.open = false
			return m, nil
		}
		m.detail.Update(k)
	case m.gdetail.open:
		m.gpuDetailKey(k)
	case m.showTopo:
		switch k.String() {
		case "esc", "backspace", "t":
			m.showTopo = false
		case "up", "k":
			c.topoScroll = max(0, c.topoScroll-1)
		case "down", "j":
			c.topoScroll++ // clamped when drawn
		case "pgup":
			c.topoScroll = max(0, c.topoScroll-10)
		case "pgdown":
			c.topoScroll += 10
		}
	default:
		return m.paneKey(k.String()), nil
	}
	return m, nil
}

// gpuDetailKey: esc back, ←→ (h l) and 1…9 switch GPU, the rest scrolls.
func (m Model) gpuDetailKey(k tea.KeyMsg) {
	p := m.gdetail
	switch s := k.String(); {
	case s == "esc" || s == "backspace":
		p.open = false
	case s == "left" || s == "h":
		p.show(max(0, p.gpu-1))
	case s == "right" || s == "l":
		p.show(min(max(0, m.c.gpuCount-1), p.gpu+1))
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9':
		if g := int(s[0] - '1'); g < m.c.gpuCount {
			p.show(g)
		}
	default:
		p.Update(k)
	}
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
		for !m.shown(c.focus) && c.focus != focusGPUs { // a pane too small to draw takes no focus
			c.focus = (c.focus + step) % focusCount
		}
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
		} else if c.focus == focusGPUs && c.gpuCount > 0 {
			m.gdetail.show(m.gpus.cursor)
		}
	case "1", "2", "3", "4", "5", "6", "7", "8", "9": // GPU 0…8: nvidia-smi numbers from 0, keys from 1
		if g := int(key[0] - '1'); g < c.gpuCount {
			m.gdetail.show(g)
		} else {
			c.status = fmt.Sprintf("no GPU %d here: keys 1-%d open GPUs 0-%d", g, min(c.gpuCount, 9), c.gpuCount-1)
			if c.gpuCount == 0 {
				c.status = "no GPUs here"
			}
		}
	case "t":
		m.showTopo, c.topoScroll = true, 0
	case "T":
		m.procs.toggleTree()
	case "/":
		if !m.shown(focusProcs) {
			c.status = "the process pane is hidden at this size: enlarge the terminal to filter processes"
			break
		}
		m.procs.startFilter()
	case "K":
		m = m.askSignal(syscall.SIGKILL)
	}
	if key == "k" && c.focus == focusProcs { // k is SIGTERM on a process, up elsewhere (vim)
		return m.askSignal(syscall.SIGTERM)
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

// shown reports whether a focus area's pane is on screen at this size.
func (m Model) shown(f focusArea) bool {
	switch f {
	case focusFindings:
		return m.layout.Findings.H > 0
	case focusProcs:
		return m.layout.Procs.H > 0
	}
	return true
}

// selectGPU points the side pane (three levels, checklist) at gpu.
func (m Model) selectGPU(gpu int) {
	if m.c.selGPU != gpu {
		m.c.selGPU = gpu
		m.refreshSide()
	}
}

// CapturesKeys reports whether the dashboard is taking every key itself (a
// filter being typed, a signal waiting for y/n), so a wrapper such as replay
// must not read them as its own commands.
func (m Model) CapturesKeys() bool { return m.procs.filtering || m.confirm != nil }

// toggleRecording starts or stops a recording and says so in the footer.
func (m Model) toggleRecording() {
	c := m.c
	if c.opts.Record == nil {
		c.status = "recording is off here (use gpuscope record)"
		return
	}
	status, on, err := c.opts.Record()
	if err != nil {
		c.status = "recording: " + err.Error()
	} else {
		c.status = status
	}
	c.recording = on
	m.header.invalidate()
}
