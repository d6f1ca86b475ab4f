package diagnose

import (
	"fmt"
	"strconv"

	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// Msg is one piece of a finding's title, evidence or estimate as a message
// id and its arguments, so the reader's language can be chosen where the
// finding is shown (ui/i18n's "finding.<id>"). The English is rendered
// when the finding is built and kept in Finding.Title/Evidence/Estimated;
// recordings and JSON readers keep working from those.
//
// Arguments are values already formatted (45%, 3.2 GiB, 30 s, a command
// line): numbers and units read the same in both languages. An argument
// that is itself words is another message (Words).
//
// A template with fields is filled when its English is first asked for,
// not in say: the Engine words a finding once while its messages stay the
// same (words.go).
type Msg struct {
	ID    string            `json:"id"`
	Args  map[string]string `json:"args,omitempty"`
	Words map[string]Msg    `json:"words,omitempty"`
	Join  Join              `json:"join,omitempty"`
	raw   bool              // en is say's template, its fields not yet filled
	en    string            // the English, or its template while raw
}

// Join says how a piece follows the one before it in a Text.
type Join int

const (
	// Clause: a new clause, after "; " (the default).
	Clause Join = iota
	// Continue: part of the clause before, no separator (its template
	// carries its own leading space or bracket).
	Continue
	// Item: the next item of a list, after ", ".
	Item
)

// Sep is the separator before a piece joined by j, in English.
func (j Join) Sep() string {
	switch j {
	case Continue:
		return ""
	case Item:
		return ", "
	}
	return "; "
}

// Text is a finding's evidence or estimate: pieces joined by their Join.
type Text []Msg

// String is the text in English.
func (t Text) String() string {
	var b strings.Builder
	for i, m := range t {
		if i > 0 {
			b.WriteString(m.Join.Sep())
		}
		b.WriteString(m.english())
	}
	return b.String()
}

// fill sets each piece's English (Msg.english) in place.
func (t Text) fill() {
	for i := range t {
		t[i].en, t[i].raw = t[i].english(), false
	}
}

// English is the piece's English text ("" once read back from JSON, where
// the finding's own English fields serve).
func (m Msg) English() string { return m.english() }

// english is en, or the template filled where say left it to be.
func (m *Msg) english() string {
	if !m.raw {
		return m.en
	}
	return fill(m.en, m.lookup)
}

// say builds a piece: id names it, en is its English template with
// {{.Name}} fields, kv are the fields' names and values. A Msg value is
// a word in the reader's language (its id is stored, Words names it).
// TestFindingMessagesTranslated reads every call from the source, so id and
// en must be literals.
func say(id, en string, kv ...any) Msg {
	m := Msg{ID: id}
	for i := 0; i+1 < len(kv); i += 2 {
		name := kv[i].(string)
		switch v := kv[i+1].(type) {
		case Msg:
			v.en, v.raw = v.english(), false
			if m.Words == nil {
				m.Words = map[string]Msg{}
			}
			m.Words[name] = v
		case string:
			m.setArg(name, v, len(kv)/2)
		case int:
			m.setArg(name, strconv.Itoa(v), len(kv)/2)
		default:
			m.setArg(name, fmt.Sprint(v), len(kv)/2)
		}
	}
	m.en, m.raw = en, strings.Contains(en, "{{")
	return m
}

func (m *Msg) setArg(name, v string, n int) {
	if m.Args == nil {
		m.Args = make(map[string]string, n)
	}
	m.Args[name] = v
}

// lookup is an argument's English: its value, or its word's English.
func (m *Msg) lookup(name string) (string, bool) {
	if v, ok := m.Args[name]; ok {
		return v, true
	}
	if w, ok := m.Words[name]; ok {
		return w.english(), true
	}
	return "", false
}

// then is a piece that continues the clause before it.
//
//go:noinline
func then(id, en string, kv ...any) Msg {
	m := say(id, en, kv...)
	m.Join = Continue
	return m
}

// item is the next piece of a list.
//
//go:noinline
func item(id, en string, kv ...any) Msg {
	m := say(id, en, kv...)
	m.Join = Item
	return m
}

// fill puts each {{.Name}} field of tmpl through val; an unknown field
// stays as it is (a test holds every template's fields to its call's names).
// {{plural .Name "one" "other"}} is the English noun for the count in
// field Name: "1 Xid error", "2 Xid errors" (Chinese has no plural, so
// findings.zh.toml writes the noun once).
func fill(tmpl string, val func(string) (string, bool)) string {
	if !strings.Contains(tmpl, "{{") {
		return tmpl
	}
	if strings.Contains(tmpl, "{{plural ") {
		tmpl = fillPlural(tmpl, val)
	}
	var b strings.Builder
	b.Grow(len(tmpl) + 32)
	for {
		i := strings.Index(tmpl, "{{.")
		if i < 0 {
			break
		}
		j := strings.Index(tmpl[i:], "}}")
		if j < 0 {
			break
		}
		b.WriteString(tmpl[:i])
		if v, ok := val(tmpl[i+3 : i+j]); ok {
			b.WriteString(v)
		} else {
			b.WriteString(tmpl[i : i+j+2])
		}
		tmpl = tmpl[i+j+2:]
	}
	b.WriteString(tmpl)
	return b.String()
}

// FindingText is a finding's words as messages (Finding.Text).
type FindingText struct {
	Title     Msg  `json:"title"`
	Evidence  Text `json:"evidence,omitempty"`
	Estimated Text `json:"estimated,omitempty"`
}

// procWho is procLabel as a message argument: a process with no PID is
// described in words.
func procWho(pid int, p *sampler.Proc) any {
	if pid == 0 {
		return say("word.unlisted_process", "an unlisted process")
	}
	return procLabel(pid, p)
}

// f0 is a number with no decimals, as the evidence prints watts, MHz and °C.
func f0(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

// Say is say for diagnose's sub-packages (fleetdiag), whose findings are
// worded the same way; the test that holds the translations reads these
// calls too.
//
// Not inlined: a copy at each call site cost the binary; see docs/benchmarks.md,
// "Binary size and the glibc floor".
//
//go:noinline
func Say(id, en string, kv ...any) Msg { return say(id, en, kv...) }

// fillPlural puts each {{plural .Name "one" "other"}} of tmpl through
// val and Plural; a token that does not read so, or whose field is
// unknown, stays as it is. Scanned by hand: the regexp it was
// (`\{\{plural \.(\w+) "([^"]*)" "([^"]*)"\}\}`, kept in the test that holds
// the two the same) was ~4 % of recording a day, a thermal finding worded
// every second (docs/benchmarks.md, "Recording a day: the writer's text").
func fillPlural(tmpl string, val func(string) (string, bool)) string {
	out := ""
	for {
		i := strings.Index(tmpl, "{{plural .")
		if i < 0 {
			return out + tmpl
		}
		out, tmpl = out+tmpl[:i], tmpl[i:]
		name, rest, _ := strings.Cut(tmpl[len("{{plural ."):], ` "`)
		one, rest, _ := strings.Cut(rest, `" "`)
		other, rest, ok := strings.Cut(rest, `"}}`)
		tok := tmpl[:len(tmpl)-len(rest)]
		if !ok || !isWord(name) || strings.Contains(one, `"`) || strings.Contains(other, `"`) {
			out, tmpl = out+tmpl[:1], tmpl[1:] // not a token here: the search goes on after its first byte
			continue
		}
		if v, ok := val(name); ok {
			tok = Plural(v, one, other)
		}
		out, tmpl = out+tok, rest
	}
}

// isWord: s is a regexp's \w+ (ASCII letters, digits, underscores).
func isWord(s string) bool {
	for _, c := range []byte(s) {
		if c != '_' && (c < '0' || c > '9') && (c|0x20 < 'a' || c|0x20 > 'z') {
			return false
		}
	}
	return s != ""
}

// Plural is one where count (a formatted number, "1" or "1 of 4") is
// one, other otherwise: the English noun after a count.
func Plural(count, one, other string) string {
	if n, _, _ := strings.Cut(count, " "); n == "1" {
		return one
	}
	return other
}
