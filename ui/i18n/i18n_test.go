package i18n

import (
	"maps"
	"regexp"
	"slices"
	"testing"

	"github.com/BurntSushi/toml"
)

func load(t *testing.T, name string) map[string]string {
	t.Helper()
	b, err := files.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	if err := toml.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// TestCatalogues: every id in both languages, none empty, and the same
// template fields and format verbs on both sides, so no key is missing in
// either language and no message loses an argument.
func TestCatalogues(t *testing.T) {
	en, zh := load(t, "active.en.toml"), load(t, "active.zh.toml")
	if len(en) < 40 {
		t.Fatalf("only %d English messages", len(en))
	}
	fields := regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}|%[-+# 0-9.]*[a-zA-Z]`)
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
		if !slices.Equal(fe, fz) {
			t.Errorf("%s: fields %v in English, %v in Chinese", id, fe, fz)
		}
	}
	for id := range zh {
		if _, ok := en[id]; !ok {
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
	zh, err := New("zh")
	if err != nil {
		t.Fatal(err)
	}
	if got := zh.T("pane.processes"); got != "进程" {
		t.Errorf("zh pane.processes = %q", got)
	}
	en, _ := New("en")
	if got := en.T("pane.processes"); got != "Processes" {
		t.Errorf("en pane.processes = %q", got)
	}
	if got := en.T("no.such.id"); got != "no.such.id" {
		t.Errorf("a missing id renders as %q, want itself", got)
	}
}
