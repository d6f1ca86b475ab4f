package ui

import (
	"github.com/charmbracelet/lipgloss"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// View composes the cached pane renderings; panes redraw only after new
// data, a resize or a key, so a repaint costs a few string joins.
func (m Model) View() string {
	parts := m.viewParts()
	if parts == nil {
		return m.c.tooSmall(m.w, m.h)
	}
	// One copy of the frame: the panes, the header and the footer written
	// once into a builder sized for them, where joining the panes and then
	// the three parts copied the screen twice more, ten times a second at
	// --interval 100ms (docs/benchmarks.md, "The dashboard at 100 ms, again").
	n := len(parts) - 1
	for _, p := range parts {
		n += len(p)
	}
	var b strings.Builder
	b.Grow(n)
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p)
	}
	return b.String()
}

// ViewLines is strings.Split(m.View(), "\n") without the frame joined to be
// split again: the Painter compares and writes a frame line by line, and
// the lines are the panes' own kept text, not a copy of the screen
// (docs/benchmarks.md, "The dashboard at 100 ms, again").
func (m Model) ViewLines() []string {
	parts := m.viewParts()
	if parts == nil {
		return strings.Split(m.View(), "\n")
	}
	n := 0
	for _, p := range parts {
		n += strings.Count(p, "\n") + 1
	}
	lines := make([]string, 0, n)
	for _, p := range parts {
		for {
			i := strings.IndexByte(p, '\n')
			if i < 0 {
				break
			}
			lines, p = append(lines, p[:i]), p[i+1:]
		}
		lines = append(lines, p)
	}
	return lines
}

// viewParts are the frame's blocks, top to bottom: the header, the page or
// the main panes, the footer; nil on a screen too small for them.
func (m Model) viewParts() []string {
	if m.layout.TooSmall || m.w <= 0 || m.h <= 0 {
		return nil
	}
	bodyH := m.h - 2
	var body []string
	switch m.pages.top() {
	case pageHelp:
		body = []string{m.helpView(m.w, bodyH)}
	case pageConfirm:
		body = []string{m.confirmView(m.w, bodyH)}
	case pageFinding:
		body = []string{m.detail.View()}
	case pageGPU:
		body = []string{m.gdetail.View()}
	case pageProc:
		body = []string{m.pview.View()}
	case pageTopology:
		body = []string{m.topo.View()}
	default:
		body = m.mainView()
	}
	return append(append([]string{m.header.View()}, body...), m.footer())
}

// tooSmall is the one message shown below MinWidth×MinHeight.
func (c *common) tooSmall(w, h int) string {
	return place(c.say("status.too_small", map[string]any{"MinW": MinWidth, "MinH": MinHeight, "W": max(w, 0), "H": max(h, 0)}), w, h)
}

// mainView is the main panes' blocks, top to bottom.
func (m Model) mainView() []string {
	l := m.layout
	var parts []string
	s := m.c.latest()
	if s != nil && s.Node.GPUError != nil && len(s.GPUs) == 0 {
		// No driver: the panel takes the GPU, findings and process rows; the
		// host pane stays live below it.
		h := l.GPUs.H + l.Findings.H + l.Procs.H
		parts = append(parts, fitBlock(noDriverPanel(m, s.Node.GPUError), m.w, h, false))
	} else {
		parts = append(parts, m.gpus.View())
		switch {
		case l.Findings.Empty(): // hidden (F)
		case l.Side.Empty():
			parts = append(parts, m.findings.View())
		default:
			parts = append(parts, m.c.sideBySide.join(m.findings.View(), l.Findings.W, m.side.View()))
		}
		if !l.Procs.Empty() {
			parts = append(parts, m.procs.View())
		}
	}
	if !l.Host.Empty() {
		parts = append(parts, m.host.View())
	}
	return parts
}

// noDriverPanel says what was tried, what failed, why that usually happens
// and how to see the product anyway.
func noDriverPanel(m Model, e *sampler.SourceError) []string {
	c, st := m.c, m.c.st
	lines := []string{
		title(st, c.word("pane.no_gpu_data"), "", false, m.w),
		st.Crit.Render("✖") + " " + c.word("nodriver.failed"),
		"  " + c.word("nodriver.tried") + "  " + e.Tried, // both labels 6 cells wide in either language
		"  " + c.word("nodriver.error") + "  " + e.Err,
	}
	if len(e.Causes) > 0 {
		lines = append(lines, "", "  "+c.word("nodriver.causes"))
		// Causes carry the fix (a command, a flag): wrap them rather than cut.
		wrap := lipgloss.NewStyle().Width(max(20, m.w-5))
		for ci := range e.Causes {
			for i, l := range strings.Split(wrap.Render(c.tr.Cause(e, ci)), "\n") {
				if i == 0 {
					lines = append(lines, "   • "+strings.TrimRight(l, " "))
				} else {
					lines = append(lines, "     "+strings.TrimRight(l, " "))
				}
			}
		}
	}
	return append(lines, "", "  "+c.say("nodriver.demo", map[string]any{"Cmd": st.Key.Render("`gpuscope --demo`")}))
}
