package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// helpKeys is the key map as shown by `?`.
var helpKeys = [][2]string{
	{"tab / shift+tab", "move focus: GPUs → findings → processes"},
	{"↑ ↓  k j", "move in the focused pane (k is SIGTERM in processes)"},
	{"enter", "open the selected finding, or the selected GPU's charts"},
	{"1 … 9", "GPU detail of GPU 0 … 8 (←→ switch GPU inside)"},
	{"t", "topology: GPU×GPU links, CPU affinity, NUMA"},
	{"T", "process tree: DataLoader workers and their CPU %"},
	{"/", "filter processes: user, command or gpu:N"},
	{"k / K", "SIGTERM / SIGKILL the selected process (asks first)"},
	{"esc", "back"},
	{"s / S", "process table: next sort column / reverse (or click)"},
	{"space", "pause (keep the last data)"},
	{"r", "start / stop recording to gpuscope-<time>.jsonl.gz"},
	{"+ / -", "sample less / more often (100ms … 60s)"},
	{"?", "this help"},
	{"q  ctrl+c", "quit"},
}

// helpView is the `?` overlay: the keys, and how to read the screen.
func (m Model) helpView(w, h int) string {
	st := m.c.st
	keys := []string{st.Title.Render("gpuscope — keys"), ""}
	for _, k := range helpKeys {
		keys = append(keys, st.Key.Render(padRight(k[0], 17))+" "+k[1])
	}
	reading := []string{"",
		st.Title.Render("reading the screen"),
		"GPU-Util is the share of time any kernel ran, not how full",
		"the GPU is: read it with SM active (SMs filled) and tensor",
		"active (computing) — the three levels (seed 000 §1).",
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
