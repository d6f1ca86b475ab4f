package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// helpView is the `?` overlay: the keys, and how to read the screen.
func (m Model) helpView(w, h int) string {
	st := m.c.st
	keys := []string{st.Title.Render("gpuscope — keys"), ""}
	for _, k := range m.c.keys.helpRows() {
		keys = append(keys, st.Key.Render(padRight(k[0], 17))+" "+k[1])
	}
	reading := []string{"",
		st.Title.Render("reading the screen"),
		"GPU-Util is the share of time any kernel ran, not how full",
		"the GPU is: read it with SM active (SMs filled) and tensor",
		"active (computing) — the three levels ([gpu-idle-pipeline] §1).",
		st.Crit.Render("✖") + " critical  " + st.Warn.Render("▲") + " warning  " + st.Info.Render("•") + " info    n/a: not supported here"}
	closing := []string{"", st.Muted.Render("press ? or esc to close")}
	lines := append(append(append([]string{}, keys...), reading...), closing...)
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(st.Border.GetForeground()).Padding(0, 1)
	body := strings.Join(lines, "\n")
	if lipgloss.Width(body)+4 > w || len(lines)+2 > h {
		// No room for the frame: the keys and how to close come first.
		if len(lines) > h {
			lines = append(append([]string{}, keys...), closing[1])
		}
		return fitBlock(lines, w, h, false)
	}
	return place(box.Render(body), w, h)
}
