package i18n

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// goI18n is how Tr rendered messages through go-i18n's Localizer (and so
// text/template) before template.go: the oracle. Both languages' files in
// one bundle, English the default, as it was built.
type goI18n struct{ loc *goi18n.Localizer }

func newGoI18n(t *testing.T, lang string) goI18n {
	t.Helper()
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, _ := files.Glob("*.toml")
	for _, n := range names {
		buf, _ := files.ReadFile(n)
		if _, err := b.ParseMessageFileBytes(buf, n); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	return goI18n{goi18n.NewLocalizer(b, lang)}
}

// T is Tr.T as it was over go-i18n.
func (g goI18n) T(id string, data map[string]any) string {
	cfg := &goi18n.LocalizeConfig{MessageID: id}
	if data != nil {
		cfg.TemplateData = data
		switch n := data["Count"].(type) {
		case int, int64:
			cfg.PluralCount = n
		case uint64:
			cfg.PluralCount = int64(min(n, 1<<62))
		}
	}
	s, err := g.loc.Localize(cfg)
	if err != nil && cfg.PluralCount != nil {
		cfg.PluralCount = nil
		s, err = g.loc.Localize(cfg)
	}
	if err != nil {
		return id
	}
	return s
}

// N is Tr.N as it was over go-i18n.
func (g goI18n) N(id string, n int, data map[string]any) string {
	fields := map[string]any{"Count": n}
	maps.Copy(fields, data)
	s, err := g.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: fields})
	if err != nil {
		return id
	}
	return s
}

// TestLookupAsGoI18n: every id of either language, asked in each
// language through T (no fields, its fields, a Count of -1 to 2 as int,
// int64 and uint64, a field missing) and N, is what go-i18n's Localizer
// said: the same plural form, the same fallback (an id missing in the
// language shows as itself), the same "<no value>".
func TestLookupAsGoI18n(t *testing.T) {
	texts := map[string]string{"no.such.id": ""} // id → its texts in both languages
	names, _ := files.Glob("*.toml")
	for _, n := range names {
		for id, s := range load(t, n) {
			texts[id] += s + " "
		}
	}
	ptr := 7
	checked := 0
	for _, lang := range Langs {
		tr, old := For(lang), newGoI18n(t, lang)
		for _, id := range slices.Sorted(maps.Keys(texts)) {
			datas := []map[string]any{nil, {}}
			for _, c := range []any{-1, 0, 1, 2, int64(1), uint64(1), uint64(5)} {
				d := map[string]any{"Count": c, "P": &ptr, "F": 1.5, "N": nil}
				for _, f := range fieldRE.FindAllStringSubmatch(texts[id], -1) {
					if f[1] != "Count" {
						d[f[1]] = fmt.Sprintf("<%s>", f[1])
					}
				}
				datas = append(datas, d)
			}
			for _, d := range datas {
				if got, want := tr.T(id, d), old.T(id, d); got != want {
					t.Errorf("%s: T(%s, %v) = %q, go-i18n said %q", lang, id, d, got, want)
				}
				checked++
			}
			for _, n := range []int{0, 1, 2} {
				if got, want := tr.N(id, n), old.N(id, n, nil); got != want {
					t.Errorf("%s: N(%s, %d) = %q, go-i18n said %q", lang, id, n, got, want)
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d renderings compared", checked)
	}
}

// FuzzFill: whatever fill writes, text/template (as go-i18n ran it,
// missingkey=default) writes the same from the same fields; a refusal is
// allowed (fill knows only {{.Field}}).
func FuzzFill(f *testing.F) {
	for _, s := range []string{
		"plain", "{{.A}}", "a {{.A}} b {{.Count}}", "{{.Missing}}", "{{.N}}", "{{.P}}", "{{.F}}",
		"{{.A}}{{.A}}", "{{.A", "{{", "}}", "{{.}}", "{{ .A }}", "{{.A.B}}", "{{.1}}", "{{._x9}}",
		"{{.日本}}", "{{plural .Count \"GPU\" \"GPUs\"}}", "{{{.A}}}", "{{.A}}}", "{{-.A}}", "{{.Fn}}", "{{.Err}}",
	} {
		f.Add(s)
	}
	ptr := 3
	var nilPtr *int
	data := map[string]any{
		"A": "x<y>", "Count": 2, "N": nil, "P": &ptr, "NilP": nilPtr, "F": 1e21, "Fn": func() {},
		"Err": errors.New("boom"), "_x9": uint8(9), "日本": []int{1, 2},
	}
	f.Fuzz(func(t *testing.T, src string) {
		got, err := fill(src, data)
		if err != nil {
			return
		}
		tmpl, err := template.New("").Option("missingkey=default").Parse(src)
		if err != nil {
			t.Fatalf("fill(%q) = %q, text/template refuses it: %v", src, got, err)
		}
		var b strings.Builder
		if err := tmpl.Execute(&b, data); err != nil {
			t.Fatalf("fill(%q) = %q, text/template: %v", src, got, err)
		}
		if b.String() != got {
			t.Fatalf("fill(%q) = %q, text/template writes %q", src, got, b.String())
		}
	})
}

// BenchmarkSay is a message with fields and a count, rendered each time
// (not cached): the status lines, the report's rows, the findings' words.
func BenchmarkSay(b *testing.B) {
	for _, lang := range Langs {
		tr := For(lang)
		b.Run(lang, func(b *testing.B) {
			for b.Loop() {
				tr.Say("report.range_of", "From", "a", "To", "b", "Span", "0s", "Count", 2)
			}
		})
	}
}
