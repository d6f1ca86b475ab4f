package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `gpuscope --nodes` without a Prometheus server: three demo exporters
// (one input_starved, one healthy, one with dcgm-exporter names only) and
// a port nobody listens on. The fleet lists all four, the silent one down
// with its reason, the input_starved finding on its node, and says the
// windowed figures cover only what was scraped.
func TestNodesScrapedDirectly(t *testing.T) {
	bin := buildBinary(t)
	starved := startExporter(t, bin, "input_starved", 1)
	healthy := startExporter(t, bin, "healthy", 2)
	dcgm := startExporter(t, bin, "thermal_throttle", 3, "--no-gpuscope-names")
	dead := freePort(t)
	list := strings.Join([]string{starved.addr, healthy.addr, dcgm.addr, dead}, ",")

	out, err := exec.Command(bin, "--nodes", list, "--once", "--json").Output()
	if err != nil {
		t.Fatalf("--nodes --once --json: %v", err)
	}
	var f fleetOut
	var extra struct {
		History float64 `json:"history_seconds"`
		Nodes   []struct {
			Instance string `json:"instance"`
			Reason   string `json:"down_reason"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &extra); err != nil {
		t.Fatal(err)
	}
	if len(f.Nodes) != 4 || f.Counts.NodesDown != 1 {
		t.Fatalf("%d nodes, %d down; want 4 listed, 1 down:\n%s", len(f.Nodes), f.Counts.NodesDown, out)
	}
	for _, e := range []*exporter{starved, healthy, dcgm} {
		n := f.node(e.addr)
		if n == nil || !n.Up || len(n.GPUs) != 8 || !strings.HasPrefix(n.Name, "gpu-node-") {
			t.Errorf("%s (%s): %+v, want up with 8 GPUs named by its host", e.scenario, e.addr, n)
		}
	}
	if n := f.node(starved.addr); n == nil || !n.has("input_starved") || n.From != "the node's gpuscope exporter" {
		t.Errorf("input_starved node: %+v, want its own input_starved finding", n)
	}
	if n := f.node(healthy.addr); n == nil || len(n.Findings) != 0 || !n.Gpuscope {
		t.Errorf("healthy node: %+v, want a gpuscope node without findings", n)
	}
	if n := f.node(dcgm.addr); n == nil || n.Gpuscope || n.From != "rules over its dcgm-exporter series" {
		t.Errorf("dcgm-only node: %+v, want it diagnosed from its series", n)
	}
	if n := f.node(dead); n == nil || n.Up {
		t.Errorf("silent target: %+v, want listed and down", n)
	}
	for _, n := range extra.Nodes {
		if n.Instance == dead && !strings.Contains(n.Reason, "refused") {
			t.Errorf("silent target's reason %q, want the connection refused", n.Reason)
		}
	}
	if extra.History <= 0 || extra.History > 60 {
		t.Errorf("history_seconds %v, want the few seconds scraped (one scrape)", extra.History)
	}

	// The text, from a file of targets with comments.
	file := filepath.Join(t.TempDir(), "nodes.txt")
	body := "# the lab\n" + starved.addr + "  # starved\n\n" + healthy.addr + "\n" + dead + "\n"
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	text, err := exec.Command(bin, "--nodes", "@"+file, "--once").Output()
	if err != nil {
		t.Fatalf("--nodes @FILE --once: %v", err)
	}
	for _, want := range []string{"3 nodes: 2 up, 1 down", "DOWN (" + dead + ":", "input_starved(GPU", "history: ", "exporter down"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("--once text lacks %q:\n%s", want, text)
		}
	}
}

// A bad target is one line naming it, exit 2, before anything is scraped.
func TestNodesBadTarget(t *testing.T) {
	bin := buildBinary(t)
	file := filepath.Join(t.TempDir(), "nodes.txt")
	if err := os.WriteFile(file, []byte("127.0.0.1:9400\nnode-b:port\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		"127.0.0.1:9400,gpu-7":  `--nodes: item 2: "gpu-7" is not a target`,
		"@" + file:              `--nodes: ` + file + ` line 2: "node-b:port" is not a target`,
		"a:1,a:1":               `"a:1" is listed twice`,
		"@" + file + ".missing": "--nodes @" + file + ".missing",
	} {
		cmd := exec.Command(bin, "--nodes", args, "--once")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), want) || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("--nodes %s: %v, stderr %q; want exit 2 and one line saying %q", args, err, stderr.String(), want)
		}
	}
}
