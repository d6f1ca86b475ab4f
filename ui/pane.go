package ui

import tea "github.com/charmbracelet/bubbletea"

// pane is every part of the screen (soft-serve's components): the root
// sizes it, routes the messages meant for it, and composes its View. Panes
// that take no messages embed cached, whose Update does nothing.
type pane interface {
	SetSize(w, h int)
	Update(msg tea.Msg)
	View() string
}

var (
	_ pane = (*headerPane)(nil)
	_ pane = (*gpuPane)(nil)
	_ pane = (*findingsPane)(nil)
	_ pane = (*sidePane)(nil)
	_ pane = (*procPane)(nil)
	_ pane = (*hostPane)(nil)
	_ pane = (*detailPane)(nil)
	_ pane = (*gpuDetailPane)(nil)
	_ pane = (*topoPane)(nil)
)
