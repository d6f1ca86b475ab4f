package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/api"
	promv1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
)

// exporter is one `gpuscope serve --demo=SCENARIO` process.
type exporter struct {
	scenario string
	addr     string // host:port it bound
	cmd      *exec.Cmd
}

var servingLine = regexp.MustCompile(`serving \S+ \(DEMO \S+\) on http://(\S+):`)

// startExporter starts one demo exporter on a free loopback port and waits
// for its start line, which names the port.
func startExporter(t *testing.T, bin, scenario string, seed int, extra ...string) *exporter {
	t.Helper()
	args := append([]string{"serve", "--demo=" + scenario, "--seed", fmt.Sprint(seed), "--listen", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start exporter %s: %v", scenario, err)
	}
	e := &exporter{scenario: scenario, cmd: cmd}
	t.Cleanup(func() { e.stop() })
	lines := bufio.NewScanner(stderr)
	found := make(chan string, 1)
	go func() {
		var seen []string
		for lines.Scan() {
			seen = append(seen, lines.Text())
			if m := servingLine.FindStringSubmatch(lines.Text()); m != nil {
				found <- m[1]
				_, _ = io.Copy(io.Discard, stderr)
				return
			}
		}
		found <- "!" + strings.Join(seen, "\n")
	}()
	select {
	case addr := <-found:
		if strings.HasPrefix(addr, "!") {
			t.Fatalf("exporter %s exited without its start line:\n%s", scenario, addr[1:])
		}
		e.addr = addr
	case <-time.After(20 * time.Second):
		t.Fatalf("exporter %s printed no start line in 20 s", scenario)
	}
	return e
}

func (e *exporter) stop() {
	if e.cmd.ProcessState == nil && e.cmd.Process != nil {
		_ = e.cmd.Process.Kill()
		_ = e.cmd.Wait()
	}
}

// startPrometheus starts Debian's prometheus (`make deps` installs it) on a free
// loopback port, scraping targets every second. It fails the test, with the
// reason, when Prometheus is missing or does not become ready: this test
// never skips.
func startPrometheus(t *testing.T, targets []string) string {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("prometheus is not installed: run `make deps` (or apt-get install prometheus)")
	}
	dir := t.TempDir()
	cfg := fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: gpuscope
    static_configs:
      - targets: ['%s']
`, strings.Join(targets, "', '"))
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freePort(t)
	var logs screen
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start prometheus: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus did not become ready in 30 s (%v); its log:\n%s", err, logs.last(4000))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	return freePortB(t)
}

func freePortB(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// eventually polls a PromQL query until check accepts its result.
func eventually(t *testing.T, api promv1.API, what, query string, check func(model.Vector) bool) model.Vector {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		v, _, err := api.Query(ctx, query, time.Now())
		cancel()
		vec, _ := v.(model.Vector)
		if err == nil && check(vec) {
			return vec
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s gave %v (err %v) after 30 s", what, query, v, err)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// fleetNode is one node of `gpuscope --prometheus URL --once --json`.
type fleetNode struct {
	Name     string  `json:"name"`
	Instance string  `json:"instance"`
	Up       bool    `json:"up"`
	Gpuscope bool    `json:"gpuscope_exporter"`
	Energy   float64 `json:"energy_kwh_1h"`
	GPUs     []struct {
		Index int      `json:"index"`
		Util  *float64 `json:"util"`
		// 5-minute means the cross-node straggler rule compares.
		UtilMean     *float64 `json:"UtilMean"`
		SMActiveMean *float64 `json:"SMActiveMean"`
	} `json:"gpus"`
	Findings []struct {
		Rule string `json:"rule"`
		GPU  int    `json:"gpu"`
	} `json:"findings"`
	From      string   `json:"diagnosed_from"`
	NeedsHost []string `json:"rules_needing_host_data"`
}

type fleetOut struct {
	Counts struct {
		NodesDown int `json:"nodes_down"`
		Down      int `json:"down"`
	} `json:"counts"`
	Findings []struct{ Title string } `json:"fleet_findings"`
	Nodes    []fleetNode              `json:"nodes"`
	Problems []string                 `json:"problems"`
}

func (f fleetOut) node(instance string) *fleetNode {
	for i := range f.Nodes {
		if f.Nodes[i].Instance == instance {
			return &f.Nodes[i]
		}
	}
	return nil
}

func (n *fleetNode) has(rule string) bool {
	for _, f := range n.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// fleetOnce runs `gpuscope --prometheus URL --once --json` until check
// accepts what it prints.
func fleetOnce(t *testing.T, bin, url, what string, check func(fleetOut) bool) fleetOut {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for {
		out, err := exec.Command(bin, "--prometheus", url, "--once", "--json").Output()
		var f fleetOut
		if err == nil {
			err = json.Unmarshal(out, &f)
		}
		if err == nil && check(f) {
			return f
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: after 40 s the fleet view printed (err %v):\n%s", what, err, out)
		}
		time.Sleep(time.Second)
	}
}

// A real Prometheus scrapes four demo exporters. Through its HTTP API both
// name sets arrive and the input_starved finding comes from the right node;
// `gpuscope --prometheus` shows every node, diagnoses the input_starved node
// so from Prometheus data, and shows a stopped exporter as down, not idle.
func TestPrometheusScrapesDemoExporters(t *testing.T) {
	bin := buildBinary(t)
	scenarios := []string{"input_starved", "healthy", "xid_error", "memory_idle_held"}
	var exps []*exporter
	var targets []string
	for i, sc := range scenarios {
		e := startExporter(t, bin, sc, i+1)
		exps = append(exps, e)
		targets = append(targets, e.addr)
	}
	url := startPrometheus(t, targets)
	client, err := api.NewClient(api.Config{Address: url})
	if err != nil {
		t.Fatal(err)
	}
	prom := promv1.NewAPI(client)
	count := func(n int) func(model.Vector) bool {
		return func(v model.Vector) bool { return len(v) == 1 && int(v[0].Value) == n }
	}
	eventually(t, prom, "all targets up", `sum(up{job="gpuscope"})`, count(4))
	eventually(t, prom, "dcgm-exporter names", `count(DCGM_FI_DEV_GPU_UTIL)`, count(32))
	eventually(t, prom, "gpuscope names", `count(gpuscope_gpu_utilization_ratio)`, count(32))
	starved := eventually(t, prom, "input_starved finding", `gpuscope_finding{rule="input_starved"}`,
		func(v model.Vector) bool { return len(v) > 0 })
	if inst := string(starved[0].Metric["instance"]); inst != exps[0].addr {
		t.Errorf("input_starved reported by %s, want the input_starved exporter %s", inst, exps[0].addr)
	}
	eventually(t, prom, "no finding on the healthy node",
		fmt.Sprintf(`count(gpuscope_finding{instance=%q}) or vector(0)`, exps[1].addr), count(0))

	// A scrape that misses its 900 ms timeout (an exporter slowed by a
	// loaded machine: `make test` runs many test binaries at once) makes its
	// node down until the next one, a second later; so wait for a view in
	// which every node is up rather than judge the first one.
	allUpBut := func(f fleetOut, down string) bool {
		for _, e := range exps {
			n := f.node(e.addr)
			if n == nil || n.Up == (e.addr == down) {
				return false
			}
		}
		return len(f.Nodes) == len(exps)
	}
	f := fleetOnce(t, bin, url, "every node up, input_starved diagnosed, energy counted", func(f fleetOut) bool {
		n, healthy := f.node(exps[0].addr), f.node(exps[1].addr)
		// increase() needs two scrapes of each node's energy counter: wait
		// for the node the energy is judged on below, not only the first.
		return allUpBut(f, "") && n.has("input_starved") && n.Energy > 0 && healthy.Energy > 0
	})
	for _, e := range exps {
		n := f.node(e.addr)
		if n == nil || !n.Up || !n.Gpuscope || len(n.GPUs) != 8 || !strings.HasPrefix(n.Name, "gpu-node-") {
			t.Errorf("%s (%s): %+v, want an up gpuscope node of 8 GPUs named by its host", e.scenario, e.addr, n)
		}
	}
	if n := f.node(exps[0].addr); n.From != "the node's gpuscope exporter" {
		t.Errorf("input_starved diagnosed from %q", n.From)
	}
	// Every fleet query ran (a PromQL error would be a problem, not a
	// failure), and the means over MeanWindow came back in percent.
	if len(f.Problems) > 0 {
		t.Errorf("problems: %v", f.Problems)
	}
	// The energy counters' rise reached the fleet (a busy H200 draws
	// ~0.6 kW: a few seconds of scrapes extrapolate to a fraction of a kWh).
	if n := f.node(exps[1].addr); n.Energy <= 0 || n.Energy > 8*0.7 {
		t.Errorf("healthy node's energy in the last hour %v kWh, want above 0 and at most 8 × 0.7", n.Energy)
	}
	if g := f.node(exps[1].addr).GPUs[0]; g.UtilMean == nil || g.SMActiveMean == nil || *g.UtilMean < 50 || *g.SMActiveMean < 20 || *g.SMActiveMean > 100 {
		t.Errorf("healthy node's GPU 0 means: util %v, SM active %v; want percent of a busy GPU", g.UtilMean, g.SMActiveMean)
	}

	exps[2].stop()
	f = fleetOnce(t, bin, url, "the stopped exporter shows as down, the others up", func(f fleetOut) bool {
		return allUpBut(f, exps[2].addr)
	})
	if f.Counts.NodesDown != 1 || f.Counts.Down != 8 || len(f.Nodes) != 4 {
		t.Errorf("counts %+v, want 1 node and its 8 GPUs down, 4 nodes listed", f.Counts)
	}
	down := false
	for _, fd := range f.Findings {
		down = down || strings.Contains(fd.Title, "exporter down")
	}
	if !down {
		t.Errorf("no fleet finding for the exporter down: %+v", f.Findings)
	}
}

// Prometheus holds dcgm-exporter-style series only (gpuscope serve
// --no-gpuscope-names: DCGM_FI_* names and labels, no host, no processes, no
// findings): the fleet view diagnoses the GPU-side rules from them and says
// which rules need host data.
func TestFleetFromDCGMSeriesOnly(t *testing.T) {
	bin := buildBinary(t)
	thermal := startExporter(t, bin, "thermal_throttle", 5, "--no-gpuscope-names")
	healthy := startExporter(t, bin, "healthy", 6, "--no-gpuscope-names")
	url := startPrometheus(t, []string{thermal.addr, healthy.addr})
	f := fleetOnce(t, bin, url, "both nodes, thermal_throttle diagnosed from DCGM series", func(f fleetOut) bool {
		n, h := f.node(thermal.addr), f.node(healthy.addr)
		return n != nil && n.has("thermal_throttle") && h != nil && h.Up
	})
	n := f.node(thermal.addr)
	if n.Gpuscope || n.From != "rules over its dcgm-exporter series" || !slices.Contains(n.NeedsHost, "input_starved") {
		t.Errorf("thermal node: %+v, want a dcgm-only node diagnosed from its series, naming the host rules", n)
	}
	if h := f.node(healthy.addr); h == nil || !h.Up || len(h.Findings) != 0 {
		t.Errorf("healthy node: %+v, want up with no findings", h)
	}
}
