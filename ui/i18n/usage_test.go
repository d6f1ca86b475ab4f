package i18n

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestUsageErrorsTranslated: every usagef call of ui/cli names an id
// whose English in cli.en.toml is the call's format, word for word, and
// whose Chinese has the same verbs in the same order (fmt fills them by
// position); no usage.* message is left over.
func TestUsageErrorsTranslated(t *testing.T) {
	en, zh := load(t, "cli.en.toml"), load(t, "cli.zh.toml")
	byEnglish := map[string]string{}
	for id, s := range en {
		if strings.HasPrefix(id, "usage.") && id != "usage.line" {
			if prev, dup := byEnglish[s]; dup {
				t.Errorf("%s and %s have the same English %q", id, prev, s)
			}
			byEnglish[s] = id
		}
	}
	verbs := regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)
	used := map[string]bool{}
	for _, c := range sourceCalls(t, []string{"../cli/*.go"}, "usagef") {
		if len(c.args) < 2 {
			continue
		}
		short, okID := literal(c.args[0])
		format, ok := literal(c.args[1])
		if !ok || !okID {
			t.Errorf("%s: usagef's id and format must be string literals", c.at)
			continue
		}
		id := "usage." + short
		if en[id] != format {
			t.Errorf("%s: usage.%s is %q in cli.en.toml, the call says %q (word for word)", c.at, short, en[id], format)
			continue
		}
		used[id] = true
		if ve, vz := verbs.FindAllString(format, -1), verbs.FindAllString(zh[id], -1); !slices.Equal(ve, vz) {
			t.Errorf("%s: verbs %v in English, %v in Chinese (same order: fmt fills them by position)", id, ve, vz)
		}
	}
	if len(used) < 20 {
		t.Fatalf("found only %d usagef calls in ui/cli", len(used))
	}
	for _, id := range byEnglish {
		if !used[id] {
			t.Errorf("%s: no usagef call has this format (left over)", id)
		}
	}
}
