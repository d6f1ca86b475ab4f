package markdown

import (
	"strconv"
	"strings"
)

// palette is how each element is marked: SGR colours in a terminal, or
// the few characters that keep structure readable without colour. Each
// style switches off only what it switched on (bold 22, italic 23,
// underline 24, colour 39), so a code span inside bold text stays bold.
type palette struct {
	plain bool
	// 256-colour indices: headings by level (the last repeats), code
	// spans, code blocks, list markers and quote bars, links.
	h                 []int
	span, block, mark int
	href              int
}

func paletteFor(s Style) palette {
	switch s {
	case Dark:
		return palette{h: []int{39, 75, 117}, span: 203, block: 250, mark: 244, href: 30}
	case Light:
		return palette{h: []int{27, 25, 24}, span: 160, block: 238, mark: 242, href: 30}
	default:
		return palette{plain: true}
	}
}

func fg(c int, s string) string {
	return "\x1b[38;5;" + strconv.Itoa(c) + "m" + s + "\x1b[39m"
}

func (p palette) heading(level int, s string) string {
	if p.plain {
		return s
	}
	c := p.h[min(level, len(p.h))-1]
	return "\x1b[1m" + fg(c, s) + "\x1b[22m"
}

func (p palette) codeSpan(s string) string {
	if p.plain {
		return s
	}
	return fg(p.span, s)
}

func (p palette) code(s string) string {
	if p.plain || s == "" {
		return s
	}
	return fg(p.block, s)
}

func (p palette) marker(s string) string {
	if p.plain {
		return s
	}
	return fg(p.mark, s)
}

func (p palette) quote(s string) string { return p.marker(s) }

// emphasis: level 1 italic, 2 bold. Plain keeps the source's asterisks,
// the one way left to show the stress.
func (p palette) emphasis(level int, s string) string {
	switch {
	case p.plain:
		stars := strings.Repeat("*", min(level, 2))
		return stars + s + stars
	case level >= 2:
		return "\x1b[1m" + s + "\x1b[22m"
	default:
		return "\x1b[3m" + s + "\x1b[23m"
	}
}

// link shows its text, and the address after it where the text is not
// already the address (a terminal page has nothing to click).
func (p palette) link(text, dest string) string {
	out := text
	if !p.plain {
		out = "\x1b[4m" + fg(p.href, text) + "\x1b[24m"
	}
	if dest != "" && dest != text && !strings.HasPrefix(dest, "#") {
		out += " (" + dest + ")"
	}
	return out
}
