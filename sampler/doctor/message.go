package doctor

import "regexp"

// Msg is a check's finding or fix as a message id and its arguments, so
// the reader's language is chosen where the checks are shown (ui/i18n's
// "doctor.<id>"); the English is rendered here, kept in Check.Seen/Fix
// and in the JSON. Arguments are paths, counts, versions and variables,
// the same in every language; an argument that is a word (yes, no) is in
// Words, named by its id ("doctor.word.<id>").
type Msg struct {
	ID    string
	Args  map[string]string
	Words map[string]string
}

// word is an argument of say that is itself a word to translate.
type word string

// say builds a message: id names it, en is its English template with
// {{.Name}} fields, kv are the fields' names and values (string or word).
// It returns the English too. A test in ui/i18n reads every call from the
// source, so id and en must be literals.
func say(id, en string, kv ...any) (string, Msg) {
	m := Msg{ID: id}
	vals := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		name := kv[i].(string)
		var v string
		switch x := kv[i+1].(type) {
		case word:
			if m.Words == nil {
				m.Words = map[string]string{}
			}
			m.Words[name], v = string(x), string(x)
		default:
			if m.Args == nil {
				m.Args = map[string]string{}
			}
			v = x.(string)
			m.Args[name] = v
		}
		vals[name] = v
	}
	// {{plural .Count "GPU" "GPUs"}}: the English noun for a count
	// (Chinese writes it once). Before the fields, whose values (an
	// environment variable) are never read as templates.
	en = plural.ReplaceAllStringFunc(en, func(tok string) string {
		m := plural.FindStringSubmatch(tok)
		if vals[m[1]] == "1" {
			return m[2]
		}
		return m[3]
	})
	// One pass: a value (an environment variable) is never read as a field.
	return field.ReplaceAllStringFunc(en, func(f string) string {
		if v, ok := vals[field.FindStringSubmatch(f)[1]]; ok {
			return v
		}
		return f
	}), m
}

var (
	field  = regexp.MustCompile(`\{\{\.(\w+)\}\}`)
	plural = regexp.MustCompile(`\{\{plural \.(\w+) "([^"]*)" "([^"]*)"\}\}`)
)

// seen sets what the check saw, in English and as a message.
//
// Not inlined: a copy at each call site cost the binary (docs/benchmarks.md,
// "Recordings: the report read from the footer").
//
//go:noinline
func (c *Check) seen(en string, m Msg) { c.Seen, c.SeenMsg = en, m }

// fix sets the check's fix, in English and as a message.
//
// Not inlined: a copy at each call site cost the binary (docs/benchmarks.md,
// "Recordings: the report read from the footer").
//
//go:noinline
func (c *Check) fix(en string, m Msg) { c.Fix, c.FixMsg = en, m }

func yesNo(b bool) word {
	if b {
		return "yes"
	}
	return "no"
}
