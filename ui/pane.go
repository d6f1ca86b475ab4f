package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

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
	_ pane = (*procViewPane)(nil)
)

// The full-screen pages (a finding, a GPU, a process) scroll a viewport
// under one title line.

// pageView is a page: its title (the page's name; what it shows, esc back,
// any keys of its own, ↑↓ scroll and where the scroll is) over the
// viewport, fitted to w×h.
func pageView(c *common, name, what, keys string, vp *viewport.Model, w, h int) string {
	if keys != "" {
		keys += " · "
	}
	info := fmt.Sprintf("%s · esc %s · %s↑↓ %s · %3.0f%%", what, c.word("hint.back"), keys, c.word("hint.scroll"), vp.ScrollPercent()*100)
	return title(c.st, c.word(name), info, true, w) + "\n" + fitBlock(strings.Split(vp.View(), "\n"), w, h-1, false)
}

// setKeepingScroll gives vp new content (new data) where the reader is.
func setKeepingScroll(vp *viewport.Model, content string) {
	y := vp.YOffset
	vp.SetContent(content)
	vp.SetYOffset(y)
}
