package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// helpKeys is the key map as shown by `?`.
var helpKeys = [][2]string{
	{"tab / shift+tab", "move focus: GPUs → findings → processes"},
	{"↑ ↓  k j", "move in the focused pane"},
	{"enter", "open the selected finding (playbook, live numbers)"},
	{"esc", "back"},
	{"s / S", "process table: next sort column / reverse"},
	{"space", "pause (keep the last data)"},
	{"+ / -", "sample less / more often (100ms … 60s)"},
	{"?", "this help"},
	{"q  ctrl+c", "quit"},
}

// helpView is the `?` overlay: the keys, and how to read the screen.
func (m Model) helpView(w, h int) string {
	st := m.c.st
	lines := []string{st.Title.Render("gpuscope — keys"), ""}
	for _, k := range helpKeys {
		lines = append(lines, st.Key.Render(padRight(k[0], 17))+" "+k[1])
	}
	lines = append(lines, "",
		st.Title.Render("reading the screen"),
		"GPU-Util is the share of time any kernel ran, not how full",
		"the GPU is: read it with SM active (SMs filled) and tensor",
		"active (computing) — the three levels (seed 000 §1).",
		st.Crit.Render("✖")+" critical  "+st.Warn.Render("▲")+" warning  "+st.Info.Render("•")+" info    n/a: not supported here",
		"", st.Muted.Render("press ? or esc to close"))
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(st.Border.GetForeground()).Padding(0, 1)
	body := strings.Join(lines, "\n")
	if lipgloss.Width(body)+4 > w || len(lines)+2 > h {
		return fitBlock(lines, w, h, false) // no room for the frame
	}
	return place(box.Render(body), w, h)
}
