package promexport

import (
	"os"
	"strings"
	"testing"
)

// docs/metrics.md names every family the exporter can serve.
func TestMetricsReferenceListsEveryFamily(t *testing.T) {
	raw, err := os.ReadFile("../../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, f := range newMetricSet(Options{DCGM: true, Own: true}).families {
		if !strings.Contains(doc, "`"+f.name+"`") {
			t.Errorf("docs/metrics.md does not list %s", f.name)
		}
	}
}
