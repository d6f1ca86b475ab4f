package ui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// hiddenFrom reads config.toml's hide, already checked against
// config.Panes: every main-screen pane but the GPUs, which the dashboard is
// about and so always shows.
func hiddenFrom(names []string) Hidden {
	return Hidden{Findings: slices.Contains(names, "findings"), Procs: slices.Contains(names, "processes"),
		Host: slices.Contains(names, "host")}
}

// viewKey hides or shows a pane (F H P) or the graphics-only processes
// (c). A hidden pane gives its rows to the others through the layout, and
// resize moves a focus it held back to the GPUs, so tab and clicks never
// reach a pane that is not drawn.
func (m Model) viewKey(k tea.KeyMsg) (Model, bool) {
	c, km := m.c, &m.c.keys
	var hidden bool
	var pane, keyName string
	switch {
	case key.Matches(k, km.ToggleFindings):
		c.hide.Findings = !c.hide.Findings
		hidden, pane, keyName = c.hide.Findings, "pane.why_idle", keyLabel(&km.ToggleFindings)
	case key.Matches(k, km.ToggleHost):
		c.hide.Host = !c.hide.Host
		hidden, pane, keyName = c.hide.Host, "pane.host", keyLabel(&km.ToggleHost)
	case key.Matches(k, km.ToggleProcs):
		c.hide.Procs = !c.hide.Procs
		hidden, pane, keyName = c.hide.Procs, "pane.processes", keyLabel(&km.ToggleProcs)
	case key.Matches(k, km.ComputeOnly):
		c.computeOnly = !c.computeOnly
		m.procs.cursor, m.procs.top = 0, 0
		m.procs.invalidate()
		return m, true
	default:
		return m, false
	}
	m = m.resize(m.w, m.h)
	m.invalidateAll()
	if hidden { // say how to get it back: a pane gone without a word looks like a bug
		c.status = paneHidden(c, pane, keyName)
	}
	return m, true
}

// procsHiddenWhy answers / when the process pane is not drawn: hidden by
// P (which shows it again), else too small a terminal.
func (m Model) procsHiddenWhy() string {
	c := m.c
	if c.hide.Procs {
		return paneHidden(c, "pane.processes", keyLabel(&c.keys.ToggleProcs))
	}
	return c.word("status.procs_hidden")
}

// modes is what the process pane's title adds for the views chosen: the
// tree (T) and compute processes only (c), so a shorter table is explained.
func (p *procPane) modes() string {
	var s string
	if p.tree {
		s += " · " + p.c.word("procs.tree")
	}
	if p.c.computeOnly {
		s += " · " + p.c.word("procs.compute_only")
	}
	return s
}

// graphicsOnly is a row the compute-only view (c) leaves out: NVML's
// graphics-only type; "C", "C+G" and an unknown type stay.
func (p *procPane) graphicsOnly(r *procRow) bool { return p.c.computeOnly && r.p.Type == "G" }

// paneHidden is the footer's line for a hidden pane and its key.
func paneHidden(c *common, pane, keyName string) string {
	return c.say("status.pane_hidden", map[string]any{"Pane": c.word(pane), "Key": keyName})
}
