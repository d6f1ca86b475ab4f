package i18n

import (
	"slices"
	"strings"
	"testing"
)

// TestDoctorMessages: every say call of sampler/doctor (where a check's
// English is written) has its English in cli.en.toml, word for word, and
// Chinese with the same fields; the call passes exactly the fields its
// template uses; no doctor message is left over in the catalogue.
func TestDoctorMessages(t *testing.T) {
	en, zh := load(t, "cli.en.toml"), load(t, "cli.zh.toml")
	seen := map[string]bool{}
	for _, c := range sourceCalls(t, []string{"../../sampler/doctor/*.go"}, "say") {
		id, text, names, ok := c.message(t)
		if !ok {
			continue
		}
		if got := fieldsOf(text); !slices.Equal(got, names) {
			t.Errorf("%s: %q uses fields %v but the call passes %v", c.at, id, got, names)
		}
		seen["doctor."+id] = true
		if e := en["doctor."+id]; e != text {
			t.Errorf("%s: cli.en.toml doctor.%s = %q, the source says %q", c.at, id, e, text)
		}
		if z, ok := zh["doctor."+id]; !ok || !slices.Equal(fieldsOf(z), fieldsOf(text)) {
			t.Errorf("%s: doctor.%s: Chinese %q missing or with other fields", c.at, id, z)
		}
	}
	if len(seen) < 20 {
		t.Fatalf("found only %d say calls in sampler/doctor", len(seen))
	}
	for id := range en {
		if (strings.HasPrefix(id, "doctor.seen.") || strings.HasPrefix(id, "doctor.fix.")) && !seen[id] {
			t.Errorf("%s: no such message in sampler/doctor (left over)", id)
		}
	}
}
