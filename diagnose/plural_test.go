package diagnose

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestPluralInFindings: a finding's English takes the noun its count
// needs, built by the rules themselves: one Xid is "1 Xid error", two are
// "2 Xid errors" (the title read "1 Xid error(s)" before).
func TestPluralInFindings(t *testing.T) {
	for _, c := range []struct {
		codes []uint64
		want  string
	}{{[]uint64{79}, "GPU 0 reported 1 Xid error"}, {[]uint64{79, 48}, "GPU 0 reported 2 Xid errors"}} {
		w := makeWindow(80, func(tick int, _ *rand.Rand, s *sampler.Snapshot) {
			if tick == 40 {
				for _, code := range c.codes {
					s.GPUs[0].Xids = append(s.GPUs[0].Xids, sampler.Xid{Time: s.Time, Code: code})
				}
			}
		})
		f, ok := has(NewEngine(Options{}).Evaluate(w[:41]), RuleXidError, 0)
		if !ok || f.Title != c.want {
			t.Errorf("Xids %v: title %q (found %v), want %q", c.codes, f.Title, ok, c.want)
		}
	}
	for _, c := range []struct{ n, want string }{{"1", "by 1 process"}, {"2", "by 2 processes"}, {"0", "by 0 processes"}, {"1 of 4", "by 1 of 4 process"}} {
		got := fill(`by {{.N}} {{plural .N "process" "processes"}}`, func(string) (string, bool) { return c.n, true })
		if got != c.want {
			t.Errorf("N=%s: %q, want %q", c.n, got, c.want)
		}
	}
}

// fillPlural reads a template as the regexp it replaced did: the same
// text for well-formed, unknown, malformed, nested and cut tokens.
func TestFillPluralAsRegexp(t *testing.T) {
	re := regexp.MustCompile(`\{\{plural \.(\w+) "([^"]*)" "([^"]*)"\}\}`)
	val := func(k string) (string, bool) {
		v, ok := map[string]string{"N": "1", "M": "2", "x_9": "1 of 3"}[k]
		return v, ok
	}
	pieces := []string{`{{plural .N "a" "b"}}`, `{{plural .M "one" "other"}}`, `{{plural .x_9 "" ""}}`, `{{plural .Q "a" "b"}}`,
		`{{plural . "a" "b"}}`, `{{plural .N "a"}}`, `{{plural .N "a" "b"}`, `{{plural .N  "a" "b"}}`, `{{plural .N "a" "b" }}`,
		`{{plural .`, `{{plural .N "`, `{{plural .Né "a" "b"}}`, `{{`, `"`, ` `, `}}`, `x`, `{{plural .N "{{plural .M "a" "b"}}" "c"}}`}
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		tmpl := ""
		for range r.IntN(5) {
			tmpl += pieces[r.IntN(len(pieces))]
		}
		want := re.ReplaceAllStringFunc(tmpl, func(tok string) string {
			m := re.FindStringSubmatch(tok)
			if v, ok := val(m[1]); ok {
				return Plural(v, m[2], m[3])
			}
			return tok
		})
		if got := fillPlural(tmpl, val); got != want {
			t.Fatalf("%q: %q, the regexp %q", tmpl, got, want)
		}
	}
}
