package main

import (
	"bufio"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// dcgmDefault is one row of testdata/dcgm-exporter-default-counters.txt.
type dcgmDefault struct {
	name, typ string
	absent    bool // left out on purpose; docs/metrics.md says why
}

func readDCGMDefaults(t *testing.T) []dcgmDefault {
	t.Helper()
	f, err := os.Open("testdata/dcgm-exporter-default-counters.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []dcgmDefault
	for sc := bufio.NewScanner(f); sc.Scan(); {
		w := strings.Fields(sc.Text())
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		if len(w) < 2 {
			t.Fatalf("bad row %q", sc.Text())
		}
		rows = append(rows, dcgmDefault{name: w[0], typ: w[1], absent: len(w) > 2 && w[2] == "absent"})
	}
	return rows
}

// dcgmGPULabels are the labels dcgm-exporter 4.5.3-4.8.2 puts on every GPU
// series (internal/pkg/rendermetrics), DCGM_FI_DRIVER_VERSION being the
// default csv's "label" row.
var dcgmGPULabels = []string{"gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname"}

// dcgmMoreLabels are the labels dcgm-exporter adds to one metric
// (internal/pkg/collector/gpu_collector.go).
var dcgmMoreLabels = map[string][]string{"DCGM_FI_DEV_XID_ERRORS": {"err_code", "err_msg"}}

// TestServeIsDropInForDCGMExporter: every metric dcgm-exporter exports by
// default is served by `serve --demo` with dcgm-exporter's type and labels
// on each of the demo's 8 GPUs, so dashboards built on dcgm-exporter do not
// come up empty; a metric left out is one docs/metrics.md explains.
func TestServeIsDropInForDCGMExporter(t *testing.T) {
	rows := readDCGMDefaults(t)
	labels := dcgmGPULabels
	for _, r := range rows {
		if r.typ == "label" {
			labels = append(labels, r.name)
		}
	}
	doc, err := os.ReadFile("docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	e := startExporter(t, buildBinary(t), "healthy", 1, "--interval", "200ms")
	fams := scrapeUntil(t, "http://"+e.addr+"/metrics", func(f map[string]*dto.MetricFamily) bool {
		return f["DCGM_FI_PROF_GR_ENGINE_ACTIVE"] != nil // GPM needs two samples
	})
	for _, r := range rows {
		if r.typ == "label" {
			continue
		}
		f := fams[r.name]
		if r.absent {
			if f != nil {
				t.Errorf("%s is marked absent but served", r.name)
			}
			if !strings.Contains(string(doc), "`"+r.name+"`") {
				t.Errorf("%s is absent and docs/metrics.md does not say why", r.name)
			}
			continue
		}
		if f == nil {
			t.Errorf("%s: not served", r.name)
			continue
		}
		if got := strings.ToLower(f.GetType().String()); got != r.typ {
			t.Errorf("%s: type %s, dcgm-exporter's is %s", r.name, got, r.typ)
		}
		if len(f.Metric) != 8 {
			t.Errorf("%s: %d series, want one per GPU (8)", r.name, len(f.Metric))
		}
		for _, m := range f.Metric {
			have := map[string]string{}
			for _, lp := range m.Label {
				have[lp.GetName()] = lp.GetValue()
			}
			for _, l := range append(labels, dcgmMoreLabels[r.name]...) {
				if have[l] == "" {
					t.Errorf("%s: series without %s: %v", r.name, l, have)
				}
			}
		}
	}
}

// scrapeUntil scrapes url until ready says the families are complete (10 s
// at most) and returns them.
func scrapeUntil(t *testing.T, url string, ready func(map[string]*dto.MetricFamily) bool) map[string]*dto.MetricFamily {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		parser := expfmt.NewTextParser(model.UTF8Validation)
		fams, err := parser.TextToMetricFamilies(resp.Body)
		resp.Body.Close()
		if err == nil && ready(fams) {
			return fams
		}
		if time.Now().After(deadline) {
			t.Fatalf("no complete scrape in 10 s (last error %v)", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
