package ui

import (
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/themes"
)

// SeverityGlyph is a severity's glyph, the same on every face (the
// dashboard, its help, the fleet view and its --once text): it carries the
// meaning without colour.
func SeverityGlyph(s diagnose.Severity) string {
	switch s {
	case diagnose.Critical:
		return "✖"
	case diagnose.Warning:
		return "▲"
	}
	return "•"
}

// SeverityMark is SeverityGlyph in the severity's colour.
func SeverityMark(st *themes.Styles, s diagnose.Severity) string {
	style := st.Info
	if s == diagnose.Critical {
		style = st.Crit
	} else if s == diagnose.Warning {
		style = st.Warn
	}
	return style.Render(SeverityGlyph(s))
}
