package promexport

import (
	"os"
	"os/exec"
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

// The scrape config, the alert rules and their unit tests in docs/prometheus
// are what promtool accepts, and the alerts fire as the tests say (a
// finding open 10 minutes is a warning).
func TestPrometheusFilesInDocs(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool is not installed: apt-get install prometheus (what .ci/run does) brings it")
	}
	for _, args := range [][]string{
		{"check", "config", "prometheus.yml"},
		{"check", "rules", "gpuscope-alerts.yml"},
		{"test", "rules", "gpuscope-alerts_test.yml"},
	} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = "../../docs/prometheus"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %v: %v\n%s", args, err, out)
		}
	}
}
