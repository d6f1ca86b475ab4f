package cli

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Every refusal of a non-NVML text has its words in both catalogues: the
// English word for word as the importer says it, the Chinese its own.
func TestRefusalsTranslated(t *testing.T) {
	en, zh := i18n.For("en"), i18n.For("zh")
	for _, k := range importer.RefusalKinds() {
		r := k
		r.Name = "paste.txt"
		if got, want := refusalLine(en, &r), "gpuscope: "+r.Error(); got != want {
			t.Errorf("%s: the English catalogue says\n%s\nthe importer\n%s", r.Kind, got, want)
		}
		got := refusalLine(zh, &r)
		if strings.Contains(got, r.What) || strings.Contains(got, "refuse.") || !strings.Contains(got, "paste.txt") {
			t.Errorf("%s: Chinese line %q keeps the English or a missing id", r.Kind, got)
		}
	}
}
