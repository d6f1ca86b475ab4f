// Package themes turns a semantic palette into the lipgloss styles the UI
// draws with. Styles are built once at start and passed down; nothing here
// changes at run time (no package-level mutable state).
package themes

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Palette names colours by what they mean, not by hue. An empty colour means
// "terminal default".
type Palette struct {
	Base   string // ordinary text
	Muted  string // labels, n/a, secondary text
	Accent string // pane titles, the cursor
	OK     string // healthy readings, LIVE badge
	Warn   string // warnings, DEMO and PAUSED badges
	Crit   string // critical findings, THROTTLE and LOST badges
	Info   string // informational findings, REPLAY badge
	Border string // rules between panes
	Badge  string // text colour on a badge background
}

// Styles are the lipgloss styles every pane uses. Build them with Build.
type Styles struct {
	Name     string
	Colorful bool
	Palette  Palette

	Base, Muted, Accent  lipgloss.Style
	OK, Warn, Crit, Info lipgloss.Style
	Border               lipgloss.Style
	Title                lipgloss.Style // pane title text
	TitleFocused         lipgloss.Style // title of the pane that has focus
	Header               lipgloss.Style // the top line
	Selected             lipgloss.Style // the row under the cursor
	Key                  lipgloss.Style // a key name in hints and help
	Bold                 lipgloss.Style

	// Badges: short inverse labels (LIVE, DEMO, PAUSED, THROTTLE, LOST).
	BadgeOK, BadgeWarn, BadgeCrit, BadgeInfo lipgloss.Style
}

// builtin lists the palettes. Hex colours degrade to 256/16 colours through
// lipgloss's profile detection.
func builtin() map[string]Palette {
	return map[string]Palette{
		// dark: for dark terminal backgrounds (the default).
		"dark": {Base: "#D0D0D0", Muted: "#7A7A7A", Accent: "#5FAFFF", OK: "#5FD75F",
			Warn: "#FFD75F", Crit: "#FF5F5F", Info: "#87AFFF", Border: "#444444", Badge: "#000000"},
		// light: for light backgrounds; darker hues keep contrast on white.
		"light": {Base: "#202020", Muted: "#707070", Accent: "#005FAF", OK: "#008700",
			Warn: "#AF5F00", Crit: "#D70000", Info: "#005FD7", Border: "#BCBCBC", Badge: "#FFFFFF"},
		// mono: no colour at all; emphasis by bold and reverse only.
		"mono": {},
	}
}

// Names lists the built-in theme names, sorted.
func Names() []string {
	var names []string
	for n := range builtin() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Default is the theme used when none is named.
const Default = "dark"

// Build returns the styles of the named theme. With colorful false (NO_COLOR,
// a dumb terminal) every theme renders like mono: attributes but no colour.
func Build(name string, colorful bool) (Styles, error) {
	if name == "" {
		name = Default
	}
	p, ok := builtin()[name]
	if !ok {
		return Styles{}, fmt.Errorf("unknown theme %q (available: %s)", name, strings.Join(Names(), ", "))
	}
	if !colorful {
		p = Palette{}
	}
	return fromPalette(name, p), nil
}

// termColor is c, a palette colour, as the terminal's colour profile
// draws it, converted once here: lipgloss converts a "#rrggbb" colour for
// a 256- or 16-colour terminal (tmux, screen, the Linux console) on every
// Render, searching the palette for the nearest (6 % of the dashboard's
// CPU at --interval 100ms: docs/benchmarks.md, "The dashboard's cost while
// it watches, 2026-12-07"). A true-colour or colourless profile keeps c.
func termColor(c string) lipgloss.TerminalColor {
	switch tc := lipgloss.ColorProfile().Color(c).(type) {
	case termenv.ANSI256Color:
		return lipgloss.ANSIColor(tc)
	case termenv.ANSIColor:
		return lipgloss.ANSIColor(tc)
	}
	return lipgloss.Color(c)
}

// fgStyle is a style in colour c (none: "").
func fgStyle(c string) lipgloss.Style {
	s := lipgloss.NewStyle()
	if c != "" {
		s = s.Foreground(termColor(c))
	}
	return s
}

func fromPalette(name string, p Palette) Styles {
	fg := func(c string) lipgloss.Style { return fgStyle(c) }
	badge := func(c string) lipgloss.Style {
		s := lipgloss.NewStyle().Bold(true)
		if c == "" {
			return s.Reverse(true)
		}
		return s.Background(termColor(c)).Foreground(termColor(p.Badge))
	}
	colorful := p != Palette{}
	s := Styles{
		Name: name, Colorful: colorful, Palette: p,
		Base: fg(p.Base), Muted: fg(p.Muted), Accent: fg(p.Accent),
		OK: fg(p.OK), Warn: fg(p.Warn), Crit: fg(p.Crit).Bold(true), Info: fg(p.Info),
		Border:       fg(p.Border),
		Title:        fg(p.Accent).Bold(true),
		TitleFocused: fg(p.Accent).Bold(true).Underline(true),
		Header:       fg(p.Base).Bold(true),
		Selected:     lipgloss.NewStyle().Reverse(true),
		Key:          fg(p.Accent).Bold(true),
		Bold:         lipgloss.NewStyle().Bold(true),
		BadgeOK:      badge(p.OK), BadgeWarn: badge(p.Warn),
		BadgeCrit: badge(p.Crit), BadgeInfo: badge(p.Info),
	}
	if !colorful {
		// Without colour, muted text must still read as text; warnings and
		// criticals carry their meaning in the marker glyph, not the hue.
		s.Muted = lipgloss.NewStyle().Faint(true)
		s.Warn = lipgloss.NewStyle().Bold(true)
	}
	return s
}
