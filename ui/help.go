package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/diagnose"
)

// helpView is the `?` overlay: the keys, and how to read the screen.
func (m Model) helpView(w, h int) string {
	st := m.c.st
	w8 := m.c.word
	keys := []string{st.Title.Render(w8("help.title")), ""}
	o := m.c.opts.offered()
	o.noGPU = m.noGPU()
	for _, k := range m.c.keys.helpRows(o) {
		keys = append(keys, st.Key.Render(padRight(k[0], 17))+" "+k[1])
	}
	reading := []string{"",
		st.Title.Render(w8("help.reading")),
		w8("help.reading1"),
		w8("help.reading2"),
		w8("help.reading3"),
		SeverityMark(st, diagnose.Critical) + " " + w8("help.critical") + "  " + SeverityMark(st, diagnose.Warning) + " " + w8("help.warning") + "  " +
			SeverityMark(st, diagnose.Info) + " " + w8("help.info") + "    " + w8("help.na")}
	closing := []string{"", st.Muted.Render(w8("help.close"))}
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

// noGPU is the screen without a driver: no GPU was read, and the panel
// that explains why stands where the GPU, findings and process panes go.
// The footer and the `?` overlay offer only the keys that act there.
func (m Model) noGPU() bool {
	s := m.c.latest()
	return s != nil && s.Node.GPUError != nil && len(s.GPUs) == 0
}
