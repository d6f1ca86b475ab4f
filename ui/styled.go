package ui

import "github.com/charmbracelet/lipgloss"

// styled is s.Render(text) for a style of the dashboard's theme (s points
// into c.st), drawn as the two sequences lipgloss puts around a line
// (lineStyle) where the style allows: the figures styled on every
// snapshot (a hot GPU's temperature, a throttle badge, the selected row,
// the process table's header) were ~5 % of the dashboard's CPU at
// --interval 100ms in lipgloss's Render, which measures each rune first
// (docs/benchmarks.md, "The dashboard at 100 ms, again").
func (c *common) styled(s *lipgloss.Style, text string) string {
	l := c.lineStyles[s]
	if l == nil || l.profile != lipgloss.ColorProfile() {
		if c.lineStyles == nil {
			c.lineStyles = map[*lipgloss.Style]*lineStyle{}
		}
		l = newLineStyle(*s)
		c.lineStyles[s] = l
	}
	return l.render(*s, text)
}
