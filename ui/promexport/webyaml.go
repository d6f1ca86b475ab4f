package promexport

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The web config is read by this small YAML reader instead of a YAML
// library: the file is three maps of strings, a list and two booleans
// ([exporter-toolkit] §web-configuration), and go.yaml.in/yaml cost the
// binary 134 KB (docs/benchmarks.md "What each dependency costs"). It reads
// block maps and lists, flow lists, plain and quoted scalars, comments and
// block scalars (`|`, for an inline PEM); anchors, aliases, tags and
// flow maps are refused in one line rather than guessed at. The tests hold
// it to go.yaml.in/yaml on every input both read (FuzzWebYAML).

// yNode is a parsed value: a scalar, a map (keys in file order) or a list.
type yNode struct {
	line int
	kind byte // 's', 'm', 'l'
	s    string
	null bool // a scalar written as nothing, ~ or null
	keys []string
	vals []*yNode
}

type yLine struct {
	n      int    // 1-based line number
	indent int    // leading spaces
	text   string // without indentation and comment
	raw    string // as written (block scalars keep it)
}

type yParser struct {
	lines []yLine
	i     int
	open  bool // the last line has no line break after it
}

func parseYAML(src string) (*yNode, error) {
	if !utf8.ValidString(src) {
		return nil, errors.New("not UTF-8 text")
	}
	if i := strings.IndexFunc(src, notPrintable); i >= 0 {
		return nil, fmt.Errorf("line %d: a control character YAML does not allow", strings.Count(src[:i], "\n")+1)
	}
	src = strings.ReplaceAll(src, "\r\n", "\n")
	if i := strings.IndexByte(src, '\r'); i >= 0 {
		return nil, fmt.Errorf("line %d: a carriage return alone: save the file with \\n or \\r\\n line ends", strings.Count(src[:i], "\n")+1)
	}
	p := &yParser{open: !strings.HasSuffix(src, "\n")}
	for n, raw := range strings.Split(strings.TrimSuffix(src, "\n"), "\n") {
		body := strings.TrimLeft(raw, " ")
		if strings.HasPrefix(body, "\t") {
			return nil, fmt.Errorf("line %d: a tab in the indentation (YAML indents with spaces)", n+1)
		}
		p.lines = append(p.lines, yLine{n: n + 1, indent: len(raw) - len(body), text: strings.TrimRight(stripComment(body), " \t"), raw: raw})
	}
	p.skip()
	if p.i < len(p.lines) && (p.lines[p.i].text == "---" || strings.HasPrefix(p.lines[p.i].text, "%")) {
		return nil, fmt.Errorf("line %d: directives and document markers are not read: give the config as one plain document", p.lines[p.i].n)
	}
	if p.i >= len(p.lines) {
		return &yNode{kind: 'm'}, nil
	}
	root, err := p.block(p.lines[p.i].indent)
	if err == nil && p.skip() < len(p.lines) {
		err = fmt.Errorf("line %d: indented less than the document starts", p.lines[p.i].n)
	}
	return root, err
}

// stripComment cuts a # that starts a comment (at the start, or after a
// space, outside quotes).
func stripComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			if i == 0 || strings.ContainsRune(" [,:-", rune(s[i-1])) {
				quote = c
			}
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
	}
	return s
}

// skip moves past blank and comment-only lines and returns the position.
func (p *yParser) skip() int {
	for p.i < len(p.lines) && p.lines[p.i].text == "" {
		p.i++
	}
	return p.i
}

func (p *yParser) block(indent int) (*yNode, error) {
	if t := p.lines[p.i].text; t == "-" || strings.HasPrefix(t, "- ") {
		return p.list(indent)
	}
	return p.mapping(indent)
}

func (p *yParser) mapping(indent int) (*yNode, error) {
	m := &yNode{kind: 'm', line: p.lines[p.i].n}
	for p.skip() < len(p.lines) {
		l := p.lines[p.i]
		if l.indent < indent {
			break
		}
		if l.indent > indent {
			return nil, fmt.Errorf("line %d: indented more than the key before it", l.n)
		}
		key, rest, err := splitKey(l)
		if err != nil {
			return nil, err
		}
		for _, k := range m.keys {
			if k == key {
				return nil, fmt.Errorf("line %d: key %q is already set", l.n, key)
			}
		}
		p.i++
		v, err := p.value(l, indent, rest)
		if err != nil {
			return nil, err
		}
		m.keys, m.vals = append(m.keys, key), append(m.vals, v)
	}
	return m, nil
}

// value is what follows "key:" (or "- ") on line l, whose block sits at
// indent: inline, a block scalar, or a block on the lines below.
func (p *yParser) value(l yLine, indent int, rest string) (*yNode, error) {
	switch {
	case rest == "":
		if p.skip() < len(p.lines) {
			next := p.lines[p.i]
			isItem := next.text == "-" || strings.HasPrefix(next.text, "- ")
			if next.indent > indent || (next.indent == indent && isItem && !strings.HasPrefix(strings.TrimLeft(l.text, " "), "-")) {
				return p.block(next.indent)
			}
		}
		return &yNode{kind: 's', line: l.n, null: true}, nil
	case rest[0] == '|' || rest[0] == '>':
		return p.blockScalar(l, indent, rest)
	case rest[0] == '[':
		return flowList(l.n, rest)
	case strings.ContainsRune("{&*!@`", rune(rest[0])):
		return nil, fmt.Errorf("line %d: %q: flow maps, anchors, aliases and tags are not read", l.n, rest)
	}
	return scalar(l.n, rest)
}

func (p *yParser) list(indent int) (*yNode, error) {
	n := &yNode{kind: 'l', line: p.lines[p.i].n}
	for p.skip() < len(p.lines) {
		l := p.lines[p.i]
		if l.indent < indent || (l.text != "-" && !strings.HasPrefix(l.text, "- ")) {
			break
		}
		if l.indent > indent {
			return nil, fmt.Errorf("line %d: indented more than the item before it", l.n)
		}
		rest := strings.TrimLeft(strings.TrimPrefix(l.text, "-"), " ")
		if _, _, err := splitKey(yLine{n: l.n, text: rest}); err == nil && rest != "" && rest[0] != '"' && rest[0] != '\'' && rest[0] != '[' {
			return nil, fmt.Errorf("line %d: a map inside a list is not read", l.n)
		}
		p.i++
		v, err := p.value(l, indent, rest)
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
	return n, nil
}

// splitKey reads "key: rest" (the key plain or quoted).
func splitKey(l yLine) (key, rest string, err error) {
	t := l.text
	if t != "" && (t[0] == '"' || t[0] == '\'') {
		end := closingQuote(t)
		if end < 0 || end+1 >= len(t) || t[end+1] != ':' || (end+2 < len(t) && t[end+2] != ' ') {
			return "", "", fmt.Errorf("line %d: want `key: value`", l.n)
		}
		k, err := scalar(l.n, t[:end+1])
		if err != nil {
			return "", "", err
		}
		return k.s, strings.TrimLeft(t[end+2:], " "), nil
	}
	i := strings.Index(t, ": ")
	if i < 0 && strings.HasSuffix(t, ":") {
		i = len(t) - 1
	}
	if i <= 0 {
		return "", "", fmt.Errorf("line %d: want `key: value`, have %q", l.n, t)
	}
	k, err := scalar(l.n, strings.TrimRight(t[:i], " "))
	if err != nil || k.null || strings.ContainsAny(k.s, "[]{},") {
		return "", "", fmt.Errorf("line %d: %q: a key gpuscope does not read; quote it", l.n, t[:i])
	}
	return k.s, strings.TrimLeft(t[i+1:], " "), nil
}

func closingQuote(t string) int {
	q := t[0]
	for i := 1; i < len(t); i++ {
		switch {
		case q == '"' && t[i] == '\\':
			i++
		case t[i] == q && q == '\'' && i+1 < len(t) && t[i+1] == '\'':
			i++
		case t[i] == q:
			return i
		}
	}
	return -1
}

// scalar is a plain or quoted scalar written on one line.
func scalar(line int, t string) (*yNode, error) {
	n := &yNode{kind: 's', line: line}
	switch {
	case t == "" || t == "~" || t == "null" || t == "Null" || t == "NULL":
		n.null = true
	case t[0] == '"':
		if closingQuote(t) != len(t)-1 {
			return nil, fmt.Errorf("line %d: %s: text after the closing quote", line, t)
		}
		s, err := strconv.Unquote(t)
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: an escape YAML's double quotes allow but gpuscope does not read", line, t)
		}
		n.s = s
	case t[0] == '\'':
		if closingQuote(t) != len(t)-1 {
			return nil, fmt.Errorf("line %d: %s: text after the closing quote", line, t)
		}
		n.s = strings.ReplaceAll(t[1:len(t)-1], "''", "'")
	case !plainStart(t[0]) || strings.Contains(t, ": ") || strings.HasSuffix(t, ":") || strings.ContainsAny(t, "\t"):
		return nil, fmt.Errorf("line %d: %q: quote it to give it as text", line, t)
	default:
		n.s = t
	}
	return n, nil
}

// flowList is [a, "b", c] on one line.
func flowList(line int, t string) (*yNode, error) {
	if !strings.HasSuffix(t, "]") {
		return nil, fmt.Errorf("line %d: a [list] must close on its line", line)
	}
	n := &yNode{kind: 'l', line: line}
	body := strings.TrimSpace(t[1 : len(t)-1])
	for body != "" {
		item, next := body, ""
		if body[0] == '"' || body[0] == '\'' {
			end := closingQuote(body)
			if end < 0 {
				return nil, fmt.Errorf("line %d: an unclosed quote in %s", line, t)
			}
			item, next = body[:end+1], strings.TrimSpace(body[end+1:])
			if next != "" && next[0] != ',' {
				return nil, fmt.Errorf("line %d: want a comma after %s", line, item)
			}
		} else if i := strings.IndexByte(body, ','); i >= 0 {
			item, next = strings.TrimSpace(body[:i]), body[i:]
		}
		v, err := scalar(line, item)
		if err != nil || v.null || (item[0] != '"' && item[0] != '\'' && strings.IndexFunc(item, notNameRune) >= 0) {
			return nil, fmt.Errorf("line %d: %s: a list item gpuscope does not read", line, t)
		}
		n.vals = append(n.vals, v)
		body = strings.TrimSpace(strings.TrimPrefix(next, ","))
	}
	return n, nil
}

// blockScalar reads `|` (lines kept; one newline at the end, none with
// `|-`); `>` folding and `|+` are refused.
func (p *yParser) blockScalar(l yLine, indent int, head string) (*yNode, error) {
	style, chomp := head[0], byte(0)
	if style == '>' || len(head) > 2 || (len(head) == 2 && head[1] != '-') {
		return nil, fmt.Errorf("line %d: %q: of the block scalars only | and |- are read", l.n, head)
	}
	if len(head) == 2 {
		chomp = head[1]
	}
	var body []string
	at := -1
	for ; p.i < len(p.lines); p.i++ {
		raw := p.lines[p.i].raw
		if raw == "" {
			body = append(body, "")
			continue
		}
		if strings.TrimSpace(raw) == "" {
			return nil, fmt.Errorf("line %d: a line of only spaces in a block scalar: leave it empty", p.lines[p.i].n)
		}
		ind := len(raw) - len(strings.TrimLeft(raw, " "))
		if at < 0 {
			at = ind
		}
		if ind < at || ind <= indent {
			break
		}
		body = append(body, raw[at:])
	}
	trail := 0
	for len(body) > 0 && body[len(body)-1] == "" {
		body, trail = body[:len(body)-1], trail+1
	}
	s := strings.Join(body, "\n")
	atEOF := p.i == len(p.lines) && p.open
	switch {
	case len(body) == 0:
		return nil, fmt.Errorf("line %d: an empty block scalar", l.n)
	case atEOF && trail == 0, chomp == '-':
		// no line break to keep, or none wanted
	default:
		s += "\n"
	}
	return &yNode{kind: 's', line: l.n, s: s}, nil
}

// plainStart: what an unquoted value may start with here (names, paths,
// hashes, numbers); YAML gives the other first characters meanings.
func plainStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_/$.~", c) >= 0
}

// notNameRune: outside a name's letters (cipher suites, versions); an
// unquoted list item holds only those, the rest YAML reads its own way.
func notNameRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' || r == '/')
}

// notPrintable: what YAML does not allow in a file (its c-printable, less
// NEL, which YAML 1.1 reads as a line break, and the byte order mark).
func notPrintable(r rune) bool {
	return !(r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0x7e || r >= 0xa0 && r <= 0xd7ff ||
		r >= 0xe000 && r <= 0xfffd && r != 0xfeff || r >= 0x10000 && r <= 0x10ffff)
}
