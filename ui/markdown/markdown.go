// Package markdown renders the playbook's Markdown pages for a terminal:
// headings, lists, code blocks and word wrap to the width given, in a style
// that follows the theme, with glamour (the Charm Markdown renderer).
package markdown

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	xansi "github.com/charmbracelet/x/ansi"
)

// Style names a glamour style that matches a gpuscope theme.
type Style string

// The styles: dark and light follow the themes of the same name; Plain has
// no colour or escape sequences at all (mono theme, NO_COLOR, not a terminal).
const (
	Dark  Style = styles.DarkStyle
	Light Style = styles.LightStyle
	Plain Style = styles.NoTTYStyle
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

// margin is the blank left margin of a rendered page, in cells.
const margin = 1

func config(style Style) ansi.StyleConfig {
	var c ansi.StyleConfig
	switch style {
	case Dark:
		c = styles.DarkStyleConfig
	case Light:
		c = styles.LightStyleConfig
	default:
		c = styles.NoTTYStyleConfig
	}
	m := uint(margin)
	c.Document.Margin = &m
	return c
}

// Renderer renders pages in one style. Building glamour's renderer costs
// more than rendering a page, so a pane keeps one and reuses it.
type Renderer struct{ tr *glamour.TermRenderer }

// New returns a renderer for style. glamour's own word wrap is off: in
// glamour 0.9 a line that ends at a hyphen can come out one cell too wide
// and its styled block wraps it a second time ("([gpu-" alone on a line),
// and it never breaks Chinese, which has no spaces; wrap does it instead.
func New(style Style) (*Renderer, error) {
	tr, err := glamour.NewTermRenderer(glamour.WithStyles(config(style)), glamour.WithWordWrap(0))
	if err != nil {
		return nil, fmt.Errorf("markdown renderer: %w", err)
	}
	return &Renderer{tr}, nil
}

// Render returns md rendered to fit width cells. The pages are our own
// embedded docs, so an error is a bug in them; it is returned rather than
// printing a half-rendered page.
func (r *Renderer) Render(md string, width int) (string, error) {
	out, err := r.tr.Render(unwrap(md))
	if err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return wrap(strings.Trim(out, "\n"), max(width, minWidth)) + "\n", nil
}

// Render renders one page with a renderer of its own.
func Render(md string, width int, style Style) (string, error) {
	r, err := New(style)
	if err != nil {
		return "", err
	}
	return r.Render(md, width)
}

// blockStart matches a line that begins a Markdown block of its own rather
// than continuing the paragraph above: a heading, list item, table row,
// quote or fence.
var blockStart = regexp.MustCompile("^\\s*(#|[-*+] |\\d+\\. |\\||>|```)")

// unwrap joins the lines of each paragraph and list item. The pages are
// hard-wrapped at 100 columns for reading as source; with glamour's wrap
// off those breaks would survive into the pane.
func unwrap(md string) string {
	var out []string
	fenced, joinable := false, false
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```"):
			fenced = !fenced
			out = append(out, l)
			joinable = false
		case fenced || t == "":
			out = append(out, l)
			joinable = false
		case joinable && !blockStart.MatchString(l):
			out[len(out)-1] += " " + t
		default:
			out = append(out, l)
			joinable = !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "|")
		}
	}
	return strings.Join(out, "\n")
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
		lead := xansi.Cut(l, 0, indent)
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

// trimRightStyled drops trailing blanks, which glamour pads some lines with,
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
