package ui

import (
	"syscall"
	"time"

	"github.com/charmbracelet/bubbles/key"
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

// handleKey routes a key: the y/n question and a filter being typed take
// every key; then the global keys; then the page on top (pages.go).
func (m Model) handleKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	c, km := m.c, &m.c.keys
	c.status = ""
	top := m.pages.top()
	switch {
	case top == pageConfirm: // the dialog takes every key: y confirms, anything else cancels
		m = m.answerConfirm(k.String())
		if key.Matches(k, km.ForceQuit) {
			return m, tea.Quit
		}
		return m, nil
	case m.procs.filtering: // typing a filter: letters are text, not commands
		if key.Matches(k, km.ForceQuit) {
			return m, tea.Quit
		}
		m.procs.filterKey(k)
		return m, nil
	}
	switch {
	case key.Matches(k, km.Quit):
		return m, tea.Quit
	case key.Matches(k, km.Help):
		m.pages.toggle(pageHelp)
		return m, nil
	case key.Matches(k, km.Pause):
		c.paused = !c.paused
		m.header.invalidate()
		return m, nil
	case key.Matches(k, km.Record):
		m.toggleRecording()
		return m, nil
	case key.Matches(k, km.Slower, km.Faster):
		dir := 1
		if key.Matches(k, km.Faster) {
			dir = -1
		}
		c.interval = nextInterval(c.interval, dir)
		if c.opts.SetInterval != nil {
			c.opts.SetInterval(c.interval)
		}
		m.header.invalidate()
		m.findings.invalidate() // the all-clear line counts the interval
		return m, nil
	}
	switch top {
	case pageHelp:
		if k.String() == "esc" {
			m.pages.close(pageHelp)
		}
	case pageFinding:
		if key.Matches(k, km.Back) {
			m.pages.close(pageFinding)
			return m, nil
		}
		m.detail.Update(k)
	case pageGPU:
		m.gpuDetailKey(k)
	case pageProc:
		if key.Matches(k, km.Back) {
			m.pages.close(pageProc)
			return m, nil
		}
		m.pview.Update(k)
	case pageTopology:
		if key.Matches(k, km.Back, km.Topology) {
			m.pages.close(pageTopology)
			return m, nil
		}
		m.topo.Update(k)
	default:
		return m.paneKey(k), nil
	}
	return m, nil
}

// gpuDetailKey: esc back, ←→ (h l) and 1…9 switch GPU, the rest scrolls.
func (m Model) gpuDetailKey(k tea.KeyMsg) {
	p, km := m.gdetail, &m.c.keys
	switch {
	case key.Matches(k, km.Back):
		m.pages.close(pageGPU)
	case key.Matches(k, km.PrevGPU):
		p.show(max(0, p.gpu-1))
	case key.Matches(k, km.NextGPU):
		p.show(min(max(0, m.c.gpuCount-1), p.gpu+1))
	case key.Matches(k, km.GPUDetail):
		if g := int(k.String()[0] - '1'); g < m.c.gpuCount {
			p.show(g)
		}
	default:
		p.Update(k)
	}
}

// paneKey handles focus, movement, sorting and enter on the main screen.
func (m Model) paneKey(k tea.KeyMsg) Model {
	c, km := m.c, &m.c.keys
	if key.Matches(k, km.Term) && c.focus == focusProcs { // k is SIGTERM on a process, up elsewhere (vim)
		return m.askSignal(syscall.SIGTERM)
	}
	if m, ok := m.viewKey(k); ok {
		return m
	}
	move := 0
	switch {
	case key.Matches(k, km.Focus, km.FocusBack):
		step := focusArea(1)
		if key.Matches(k, km.FocusBack) {
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
	case key.Matches(k, km.Up):
		move = -1
	case key.Matches(k, km.Down):
		move = 1
	case key.Matches(k, km.PageUp):
		move = -10
	case key.Matches(k, km.PageDown):
		move = 10
	case key.Matches(k, km.Sort, km.SortReverse):
		m.procs.cycleSort(key.Matches(k, km.SortReverse))
	case key.Matches(k, km.Enter):
		if f, ok := m.findings.selected(); ok && c.focus == focusFindings {
			m.detail.show(f)
			m.pages.open(pageFinding)
		} else if c.focus == focusGPUs && c.gpuCount > 0 {
			m.gdetail.show(m.gpus.cursor)
			m.pages.open(pageGPU)
		} else if r, ok := m.procs.selected(); ok && c.focus == focusProcs {
			m.pview.show(r.pid())
			m.pages.open(pageProc)
		}
	case key.Matches(k, km.GPUDetail): // GPU 0…8: nvidia-smi numbers from 0, keys from 1
		if g := int(k.String()[0] - '1'); g < c.gpuCount {
			m.gdetail.show(g)
			m.pages.open(pageGPU)
		} else {
			c.status = c.say("status.no_such_gpu", map[string]any{"GPU": g, "Keys": min(c.gpuCount, 9), "Last": c.gpuCount - 1})
			if c.gpuCount == 0 {
				c.status = c.word("status.no_gpus")
			}
		}
	case key.Matches(k, km.Topology):
		m.topo.show()
		m.pages.open(pageTopology)
	case key.Matches(k, km.Tree):
		m.procs.toggleTree()
	case key.Matches(k, km.Filter):
		if !m.shown(focusProcs) {
			c.status = m.procsHiddenWhy()
			break
		}
		m.procs.startFilter()
	case key.Matches(k, km.Kill):
		m = m.askSignal(syscall.SIGKILL)
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
func (m Model) CapturesKeys() bool { return m.procs.filtering || m.pages.top() == pageConfirm }

// toggleRecording starts or stops a recording and says so in the footer.
func (m Model) toggleRecording() {
	c := m.c
	if c.opts.Record == nil {
		c.status = c.word("status.record_off")
		return
	}
	status, on, err := c.opts.Record()
	if err != nil {
		c.status = c.say("status.record_failed", map[string]any{"Err": err.Error()})
	} else {
		c.status = status
	}
	c.recording = on
	m.header.invalidate()
}
