package i18n

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// load reads a message file as id → its text; a plural message (a table
// of CLDR forms: one, other …) is its forms joined, so fields are compared
// over all of them.
func load(t *testing.T, name string) map[string]string {
	t.Helper()
	b, err := files.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	raw := map[string]any{}
	if err := toml.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	m := map[string]string{}
	var walk func(prefix string, v map[string]any)
	walk = func(prefix string, v map[string]any) {
		for k, x := range v {
			if _, dup := m[prefix+k]; dup { // "a.b" = … and [a.b]: go-i18n keeps one of them
				t.Errorf("%s: %s is both a message and a table", name, prefix+k)
			}
			switch x := x.(type) {
			case string:
				m[prefix+k] = x
			case map[string]any:
				if _, plural := x["other"]; plural {
					var forms []string
					for _, f := range slices.Sorted(maps.Keys(x)) {
						forms = append(forms, fmt.Sprint(x[f]))
					}
					m[prefix+k] = strings.Join(forms, " | ")
				} else {
					walk(prefix+k+".", x)
				}
			}
		}
	}
	walk("", raw)
	return m
}

// TestCatalogues: every id in both languages, none empty, and the same
// template fields and format verbs on both sides, so no key is missing in
// either language and no message loses an argument.
func TestCatalogues(t *testing.T) {
	en, zh := map[string]string{}, map[string]string{}
	for _, lang := range []struct {
		m    map[string]string
		glob string
	}{{en, "*.en.toml"}, {zh, "*.zh.toml"}} {
		names, _ := files.Glob(lang.glob)
		for _, name := range names {
			for id, s := range load(t, name) {
				if _, dup := lang.m[id]; dup {
					t.Errorf("%s: %s is also in another file", name, id)
				}
				lang.m[id] = s
			}
		}
	}
	if len(en) < 40 {
		t.Fatalf("only %d English messages", len(en))
	}
	// A verb is % with flags but no space: "% of its limit" is prose.
	fields := regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}|%[-+#0-9.]*[a-zA-Z]`)
	for _, id := range slices.Sorted(maps.Keys(en)) {
		z, ok := zh[id]
		if !ok {
			t.Errorf("%s: no Chinese message", id)
			continue
		}
		if z == "" || en[id] == "" {
			t.Errorf("%s: empty message", id)
		}
		fe, fz := fields.FindAllString(en[id], -1), fields.FindAllString(z, -1)
		slices.Sort(fe)
		slices.Sort(fz)
		fe, fz = slices.Compact(fe), slices.Compact(fz) // a plural repeats its fields per form
		if !slices.Equal(fe, fz) {
			t.Errorf("%s: fields %v in English, %v in Chinese", id, fe, fz)
		}
	}
	for id := range zh {
		// fix.*: the first fixes, whose English is diagnose/hints.go's own
		// text (TestEveryFixTranslated in ui holds them all).
		if _, ok := en[id]; !ok && !strings.HasPrefix(id, "fix.") && !strings.HasPrefix(id, "finding.") && !strings.HasPrefix(id, "cause.") {
			t.Errorf("%s: Chinese only", id)
		}
	}
}

func TestMatchAndLookup(t *testing.T) {
	for in, want := range map[string]string{"zh": "zh", "zh_CN.UTF-8": "zh", "zh-TW": "zh", "en_US.UTF-8": "en", "C": "en", "": "en", "fr": "en"} {
		if got := Match(in); got != want {
			t.Errorf("Match(%q) = %q, want %q", in, got, want)
		}
	}
	zh := For("zh")
	if got := zh.T("pane.processes"); got != "进程" {
		t.Errorf("zh pane.processes = %q", got)
	}
	en := For("en")
	if got := en.T("pane.processes"); got != "Processes" {
		t.Errorf("en pane.processes = %q", got)
	}
	if got, got1 := en.N("findings.count", 3), en.N("findings.count", 1); got != "3 findings" || got1 != "1 finding" {
		t.Errorf("en plural: %q, %q", got, got1)
	}
	if got := zh.N("findings.count", 3); got != "3 项诊断" {
		t.Errorf("zh plural: %q", got)
	}
	if got := en.T("no.such.id"); got != "no.such.id" {
		t.Errorf("a missing id renders as %q, want itself", got)
	}
}

// BenchmarkNew is the cost every start pays for its words (docs/benchmarks.md).
func BenchmarkNew(b *testing.B) {
	for _, lang := range []string{"en", "zh"} {
		b.Run(lang, func(b *testing.B) {
			for b.Loop() {
				For(lang)
			}
		})
	}
}

// BenchmarkWord is one of the words a frame asks for (a pane's title),
// cached after the first lookup (Tr.words).
func BenchmarkWord(b *testing.B) {
	tr := For("zh")
	for b.Loop() {
		tr.T("pane.why_idle")
	}
}

// A word asked for twice is the same, and a message with fields is not
// cached under its id.
func TestWordCached(t *testing.T) {
	tr := For("en")
	if a, b := tr.T("pane.why_idle"), tr.T("pane.why_idle"); a != b || a == "pane.why_idle" {
		t.Errorf("pane.why_idle: %q then %q", a, b)
	}
	one := tr.T("findings.count", map[string]any{"Count": 1})
	two := tr.T("findings.count", map[string]any{"Count": 2})
	if one == two {
		t.Errorf("findings.count gave %q for 1 and 2", one)
	}
}
