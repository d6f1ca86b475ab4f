package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// findingSet runs gpuscope with args and returns its --json findings as
// sorted "rule:gpu" strings.
func findingSet(t *testing.T, bin string, args ...string) []string {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) { // check exits non-zero on findings; its JSON is whole
		t.Fatalf("gpuscope %s: %v", strings.Join(args, " "), err)
	}
	var r struct {
		Findings []struct {
			Rule string `json:"rule"`
			GPU  int    `json:"gpu"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("gpuscope %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var set []string
	for _, f := range r.Findings {
		set = append(set, fmt.Sprintf("%s:%d", f.Rule, f.GPU))
	}
	slices.Sort(set)
	return slices.Compact(set)
}

// The node and the Prometheus path must agree: each scenario served by
// `gpuscope serve`, scraped by a real Prometheus and read back with
// `report --prometheus --node` names what `check` names on the same
// scenario and seed. Multi-GPU jobs are the hard part: processes rebuilt
// from series have no process tree, so before the exporter published each
// rank's job parent (job_pid), a straggler read back as one launch_bound
// finding per rank.
func TestPrometheusReportAgreesWithCheck(t *testing.T) {
	bin := buildBinary(t)
	scenarios := []string{"straggler", "comm_bound", "load_imbalance", "input_starved", "launch_bound", "healthy"}
	var exps []*exporter
	var targets []string
	for i, sc := range scenarios {
		e := startExporter(t, bin, sc, i+1)
		exps = append(exps, e)
		targets = append(targets, e.addr)
	}
	url := startPrometheus(t, targets)
	// The rules need their window of scraped samples (diagnose.JudgeAllSpan
	// for check; Prometheus holds only what it scraped since it started).
	time.Sleep(130 * time.Second)
	for i, e := range exps {
		want := findingSet(t, bin, "check", "--demo="+e.scenario, "--seed", fmt.Sprint(i+1), "--json")
		got := findingSet(t, bin, "report", "--prometheus", url, "--node", e.addr, "--format", "json")
		if !slices.Equal(got, want) {
			t.Errorf("%s: report --prometheus names %v, check names %v", e.scenario, got, want)
		}
	}
}
