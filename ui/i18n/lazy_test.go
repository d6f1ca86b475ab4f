package i18n

import (
	"strings"
	"testing"
)

// TestPartsParsedWhenAsked: a Tr parses the panes' words at once and
// another part only when one of its words is asked for, and then says
// every word of every file as a Tr with the whole catalogue parsed does:
// no id is in two parts of one language, so the order parts are parsed
// in cannot change a word.
func TestPartsParsedWhenAsked(t *testing.T) {
	names, err := files.Glob("*.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range Langs {
		owner := map[string]string{}
		for _, n := range names {
			if !strings.HasSuffix(n, "."+lang+".toml") {
				continue
			}
			for id := range load(t, n) {
				if o, dup := owner[id]; dup {
					t.Errorf("%s: %s is in %s and %s", lang, id, o, n)
				}
				owner[id] = n
			}
		}
		lazy := For(lang)
		parts := len(lazy.pending)
		if lazy.T("pane.gpus") == "pane.gpus" || len(lazy.pending) != parts {
			t.Fatalf("%s: a pane's title parsed another part (%d of %d left)", lang, len(lazy.pending), parts)
		}
		whole := For(lang)
		for len(whole.pending) > 0 {
			if err := whole.parseNext(); err != nil {
				t.Fatal(err)
			}
		}
		for id := range owner {
			data := map[string]any{"Count": 2}
			if got, want := lazy.T(id, data), whole.T(id, data); got != want {
				t.Errorf("%s: %s = %q, the whole catalogue says %q", lang, id, got, want)
			}
		}
		if len(lazy.pending) != 0 {
			t.Errorf("%s: %d parts never parsed though every word was asked for", lang, len(lazy.pending))
		}
	}
}
