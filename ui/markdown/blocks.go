package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// page turns goldmark's tree into lines of styled text, one per logical
// line (a paragraph is one line here; wrap breaks it to the width later), so
// the only layout decision left to wrap is where a line breaks.
type page struct {
	src   []byte
	pal   palette
	lines []string
}

// blank adds one empty line between blocks, never two and never first.
func (p *page) blank() {
	if n := len(p.lines); n > 0 && p.lines[n-1] != "" {
		p.lines = append(p.lines, "")
	}
}

// block renders n and its children with indent before the first line and
// hang before every further line (a list item's continuation hangs under
// its text, not under its marker).
func (p *page) block(n ast.Node, indent, hang string) {
	switch b := n.(type) {
	case *ast.Document:
		p.children(n, indent, hang)
	case *ast.Heading:
		p.blank()
		mark := ""
		if p.pal.plain {
			mark = strings.Repeat("#", b.Level) + " "
		}
		p.lines = append(p.lines, indent+p.pal.heading(b.Level, mark+p.plainText(b)))
		p.blank()
	case *ast.Paragraph, *ast.TextBlock:
		p.lines = append(p.lines, p.inlineLines(n, indent, hang)...)
		if _, tb := n.(*ast.TextBlock); !tb {
			p.blank()
		}
	case *ast.List:
		p.list(b, indent, hang)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		p.code(n, hang)
	case *ast.Blockquote:
		bar := p.pal.quote("│ ")
		p.children(n, indent+bar, hang+bar)
	case *ast.ThematicBreak:
		p.blank()
		p.lines = append(p.lines, hang+p.pal.quote(strings.Repeat("─", 20)))
		p.blank()
	case *ast.HTMLBlock:
		p.raw(b.Lines(), hang, func(s string) string { return s })
	default:
		p.children(n, indent, hang)
	}
}

func (p *page) children(n ast.Node, indent, hang string) {
	first := true
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if first {
			p.block(c, indent, hang)
			first = false
			continue
		}
		p.block(c, hang, hang)
	}
}

// list renders each item behind its marker ("• ", or "3. " counting from
// the list's start); a tight list keeps its items on consecutive lines.
func (p *page) list(l *ast.List, indent, hang string) {
	num := l.Start
	first := true
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		mark := "• "
		if p.pal.plain {
			mark = "- "
		}
		if l.IsOrdered() {
			mark = strconv.Itoa(num) + ". "
			num++
		}
		lead := hang
		if first {
			lead = indent
			first = false
		}
		p.block(it, lead+p.pal.marker(mark), hang+strings.Repeat(" ", len(mark)))
		if !l.IsTight {
			p.blank()
		}
	}
	p.blank()
}

// code keeps a code block's lines as they are, indented two cells and in
// the code colour; wrap only breaks one that is wider than the pane.
func (p *page) code(n ast.Node, hang string) {
	p.blank()
	p.raw(n.Lines(), hang+"  ", p.pal.code)
	p.blank()
}

func (p *page) raw(segs *text.Segments, lead string, style func(string) string) {
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		l := strings.TrimRight(string(s.Value(p.src)), "\n")
		p.lines = append(p.lines, lead+style(l))
	}
}

// inlineLines renders a paragraph's inline content; a hard line break
// starts a new line under hang.
func (p *page) inlineLines(n ast.Node, indent, hang string) []string {
	var b strings.Builder
	p.inline(n, &b)
	parts := strings.Split(b.String(), "\n")
	for i := range parts {
		if i == 0 {
			parts[i] = indent + parts[i]
		} else {
			parts[i] = hang + parts[i]
		}
	}
	return parts
}

func (p *page) inline(n ast.Node, b *strings.Builder) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch x := c.(type) {
		case *ast.Text:
			b.Write(x.Value(p.src))
			switch {
			case x.HardLineBreak():
				b.WriteByte('\n')
			case x.SoftLineBreak():
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(x.Value)
		case *ast.CodeSpan:
			b.WriteString(p.pal.codeSpan(p.plainText(x)))
		case *ast.Emphasis:
			var in strings.Builder
			p.inline(x, &in)
			b.WriteString(p.pal.emphasis(x.Level, in.String()))
		case *ast.Link:
			var in strings.Builder
			p.inline(x, &in)
			b.WriteString(p.pal.link(in.String(), string(x.Destination)))
		case *ast.AutoLink:
			b.WriteString(p.pal.link(string(x.URL(p.src)), ""))
		case *ast.Image:
			b.WriteString(p.plainText(x))
		case *ast.RawHTML:
			for i := 0; i < x.Segments.Len(); i++ {
				seg := x.Segments.At(i)
				b.Write(seg.Value(p.src))
			}
		default:
			p.inline(c, b)
		}
	}
}

// plainText is a node's text without markup (a heading, a code span).
func (p *page) plainText(n ast.Node) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch x := c.(type) {
			case *ast.Text:
				b.Write(x.Value(p.src))
				if x.SoftLineBreak() || x.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(x.Value)
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}
