// Package markdown renders the playbook's Markdown pages for a terminal:
// headings, lists, code blocks and word wrap to the width given, in colours
// that follow the theme. goldmark (CommonMark) parses; the tree is drawn
// here (blocks.go, palette.go). glamour did this before and cost 5.8 MB of
// the binary for styles and syntax highlighting these pages never use
// (docs/benchmarks.md, "Binary size").
package markdown

import (
	"regexp"
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"
)

// Style names the colours of a rendered page.
type Style string

// The styles: dark and light follow the themes of the same name; Plain has
// no colour or escape sequences at all (mono theme, NO_COLOR, not a terminal).
const (
	Dark  Style = "dark"
	Light Style = "light"
	Plain Style = "notty"
)

// ForTheme maps a theme name (themes: dark, light, mono) and the no-colour
// setting to a style.
func ForTheme(theme string, noColor bool) Style {
	switch {
	case noColor || theme == "mono":
		return Plain
	case theme == "light":
		return Light
	default:
		return Dark
	}
}

// minWidth keeps a page readable in a narrow pane: below it list indents
// leave too few cells for words.
const minWidth = 20

// margin is the blank left margin of a rendered page.
const margin = " "

// Renderer renders pages in one style; a pane keeps one.
type Renderer struct {
	md  goldmark.Markdown
	pal palette
}

// New returns a renderer for style.
func New(style Style) *Renderer {
	return &Renderer{md: goldmark.New(), pal: paletteFor(style)}
}

// Render returns md rendered to fit width cells. Any text is valid
// CommonMark, so there is no error: what is not markup reads as text.
func (r *Renderer) Render(md string, width int) string {
	src := []byte(md)
	doc := r.md.Parser().Parse(text.NewReader(src))
	p := &page{src: src, pal: r.pal}
	p.block(doc, margin, margin)
	for len(p.lines) > 0 && p.lines[len(p.lines)-1] == "" {
		p.lines = p.lines[:len(p.lines)-1]
	}
	return wrap(strings.Join(p.lines, "\n"), max(width, minWidth)) + "\n"
}

// Render renders one page with a renderer of its own.
func Render(md string, width int, style Style) string {
	return New(style).Render(md, width)
}

// listMark is a rendered list item's marker, which continuation lines hang
// under: "• ", "- ", "12. ".
var listMark = regexp.MustCompile(`^(• |- |\d+\. )`)

// wrap breaks every line wider than width at spaces where it can and
// between any two characters where it cannot (Chinese may break anywhere),
// keeping the line's indent, with list items' continuations hung under their
// text. Escape sequences are kept intact.
func wrap(s string, width int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = trimRightStyled(l)
		if xansi.StringWidth(l) <= width {
			out = append(out, l)
			continue
		}
		plain := xansi.Strip(l)
		body := strings.TrimLeft(plain, " ")
		indent := len(plain) - len(body)
		hang := indent + xansi.StringWidth(listMark.FindString(body))
		room := max(width-hang, minWidth/2)
		lead := strings.Repeat(" ", indent) // plain blanks: Cut would carry every escape of the line
		parts := strings.Split(xansi.Wrap(xansi.TruncateLeft(l, indent, ""), room, ""), "\n")
		for i, p := range parts {
			if i == 0 {
				out = append(out, trimRightStyled(lead+p))
			} else {
				out = append(out, trimRightStyled(strings.Repeat(" ", hang)+strings.TrimLeft(p, " ")))
			}
		}
	}
	return strings.Join(out, "\n")
}

// trimRightStyled drops trailing blanks (a code line's, a hard break's),
// whether or not they sit inside escape sequences.
func trimRightStyled(l string) string {
	w := xansi.StringWidth(strings.TrimRight(xansi.Strip(l), " "))
	if w == xansi.StringWidth(l) {
		return l
	}
	return xansi.Cut(l, 0, w) + resetIfStyled(l)
}

func resetIfStyled(l string) string {
	if strings.Contains(l, "\x1b[") {
		return "\x1b[0m"
	}
	return ""
}
