package ui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// handleMouse: a click selects the GPU, finding or process under it (a
// click on the process table's header sorts by that column); the wheel
// scrolls the pane under the pointer, or the open page.
func (m Model) handleMouse(msg tea.MouseMsg) Model {
	switch m.pages.top() {
	case pageConfirm, pageHelp:
		return m
	case pageTopology:
		m.topo.Update(msg)
		return m
	case pageFinding:
		m.detail.Update(msg)
		return m
	case pageGPU:
		m.gdetail.Update(msg)
		return m
	case pageProc:
		m.pview.Update(msg)
		return m
	}
	wheel := 0
	switch {
	case msg.Button == tea.MouseButtonWheelUp:
		wheel = -1
	case msg.Button == tea.MouseButtonWheelDown:
		wheel = 1
	case msg.Action != tea.MouseActionPress || msg.Button != tea.MouseButtonLeft:
		return m
	}
	l, c := m.layout, m.c
	// Rows are mapped from the last rendering; make sure there is one.
	m.gpus.View()
	m.findings.View()
	m.procs.View()
	in := func(r Rect) bool {
		return !r.Empty() && msg.Y >= r.Y && msg.Y < r.Y+r.H && msg.X >= r.X && msg.X < r.X+r.W
	}
	switch {
	case in(l.GPUs):
		c.focus = focusGPUs
		if wheel != 0 {
			m.gpus.move(wheel)
		} else if line := msg.Y - l.GPUs.Y; line >= 1 {
			m.gpus.move(m.gpus.gpuAtLine(line) - m.gpus.cursor)
		}
		m.selectGPU(m.gpus.cursor)
	case in(l.Findings):
		c.focus = focusFindings
		line := msg.Y - l.Findings.Y
		if wheel != 0 {
			m.findings.move(wheel)
		} else if line < len(m.findings.lineOf) && m.findings.lineOf[line] >= 0 {
			m.findings.move(m.findings.lineOf[line] - m.findings.cursor)
		}
		if f, ok := m.findings.selected(); ok && f.GPU >= 0 {
			m.selectGPU(f.GPU)
		}
	case in(l.Procs):
		c.focus = focusProcs
		line := msg.Y - l.Procs.Y
		switch {
		case wheel != 0:
			m.procs.move(wheel)
		case line == m.procs.firstRowLine-1:
			m.procs.sortAt(msg.X - l.Procs.X)
		case line >= m.procs.firstRowLine:
			m.procs.move(m.procs.top + line - m.procs.firstRowLine - m.procs.cursor)
		}
	default:
		return m
	}
	m.invalidateAll()
	return m
}

// sortAt sorts by the column at cell x of the header (again: reverse).
func (p *procPane) sortAt(x int) {
	pos := 2 // after the cursor column
	for i, col := range p.cols {
		end := pos + col.width
		if col.width == 0 {
			end = p.w
		}
		if x >= pos && x < end {
			if col.key == nil {
				return
			}
			if p.sortBy == i {
				p.reverse = !p.reverse
			} else {
				p.sortBy, p.reverse = i, false
			}
			p.invalidate()
			return
		}
		pos = end + 1
	}
}
