package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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
func startExporter(t *testing.T, bin, scenario string, seed int) *exporter {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--demo="+scenario, "--seed", fmt.Sprint(seed), "--listen", "127.0.0.1:0")
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

// startPrometheus starts Debian's prometheus (.ci/run installs it) on a free
// loopback port, scraping targets every second. It fails the test, with the
// reason, when Prometheus is missing or does not become ready: this test
// never skips.
func startPrometheus(t *testing.T, targets []string) string {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("prometheus is not installed: apt-get install prometheus (what .ci/run does)")
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
	var logs lockedBuffer
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
			t.Fatalf("prometheus did not become ready in 30 s (%v); its log:\n%s", err, logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.b.String()
	return s[max(0, len(s)-4000):]
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

// A real Prometheus scrapes four demo exporters: every node's GPUs arrive
// under both name sets, the input_starved node's finding is a series, and a
// stopped exporter's target goes down.
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
	eventually(t, prom, "no input_starved on the healthy node",
		fmt.Sprintf(`count(gpuscope_finding{instance=%q}) or vector(0)`, exps[1].addr), count(0))

	exps[2].stop()
	eventually(t, prom, "the stopped exporter is down",
		fmt.Sprintf(`up{instance=%q}`, exps[2].addr), func(v model.Vector) bool { return len(v) == 1 && v[0].Value == 0 })
	eventually(t, prom, "the others stay up", `sum(up{job="gpuscope"})`, count(3))
}
