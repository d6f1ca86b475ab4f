package promexport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

func get(t *testing.T, h http.Handler, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestPathsBeforeAndAfterTheFirstTick(t *testing.T) {
	st := NewState()
	h, err := Handler(st, Options{DCGM: true, Own: true})
	if err != nil {
		t.Fatal(err)
	}
	if c := get(t, h, HealthyPath).Code; c != http.StatusOK {
		t.Errorf("healthy before the first tick: %d, want 200 (the process is alive)", c)
	}
	for _, p := range []string{ReadyPath, SnapshotPath, FindingsPath} {
		if c := get(t, h, p).Code; c != http.StatusServiceUnavailable {
			t.Errorf("%s before the first tick: %d, want 503", p, c)
		}
	}
	snap := testNode(2, 1)
	st.Publish(snap, nil)
	if c := get(t, h, ReadyPath).Code; c != http.StatusOK {
		t.Errorf("ready after a tick: %d", c)
	}
	var back sampler.Snapshot
	if err := json.Unmarshal(get(t, h, SnapshotPath).Body.Bytes(), &back); err != nil || back.Seq != snap.Seq || len(back.GPUs) != 2 {
		t.Errorf("/snapshot: %v, seq %d, %d GPUs", err, back.Seq, len(back.GPUs))
	}
	if body := strings.TrimSpace(get(t, h, FindingsPath).Body.String()); body != "[]" {
		t.Errorf("/findings with nothing open = %q, want []", body)
	}
	st.Publish(snap, testFindings(snap.Time))
	var fs []diagnose.Finding
	if err := json.Unmarshal(get(t, h, FindingsPath).Body.Bytes(), &fs); err != nil || len(fs) != 2 || fs[0].Rule != "input_starved" {
		t.Errorf("/findings: %v %+v", err, fs)
	}
	om := get(t, h, MetricsPath, "Accept", "application/openmetrics-text; version=1.0.0")
	if ct := om.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/openmetrics-text") || !strings.HasSuffix(om.Body.String(), "# EOF\n") {
		t.Errorf("OpenMetrics asked, got %q ending %q", ct, tail(om.Body.String()))
	}
	text := get(t, h, MetricsPath)
	if ct := text.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") || !strings.Contains(text.Body.String(), "gpuscope_finding{") {
		t.Errorf("text format: %q", ct)
	}
}

func tail(s string) string { return s[max(0, len(s)-20):] }

// promtool, the Prometheus project's own checker, reads what a scrape
// returns: gpuscope's names pass it clean, and with dcgm-exporter's names
// on it finds only what it finds in dcgm-exporter's own output.
func TestPromtoolCheckMetrics(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool is not installed: apt-get install prometheus (what .ci/run does) brings it")
	}
	st := published(testNode(8, 3))
	for _, c := range []struct {
		name     string
		opts     Options
		lintFree bool
	}{
		{"gpuscope names", Options{Own: true, Version: "test"}, true},
		{"both sets", Options{Own: true, DCGM: true, Version: "test"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := Handler(st, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(promtool, "check", "metrics")
			cmd.Stdin = get(t, h, MetricsPath).Body
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			switch {
			case err == nil:
			case errors.As(err, &exit) && exit.ExitCode() == 3 && !c.lintFree:
				// exit 3 is "lint problems": only dcgm-exporter's own kinds.
				for line := range strings.Lines(string(out)) {
					if !strings.HasPrefix(line, "DCGM_FI_") {
						t.Errorf("promtool: %s", line)
					}
				}
			default:
				t.Fatalf("promtool check metrics: %v\n%s", err, out)
			}
		})
	}
}

// --web.config.file is exporter-toolkit's: basic auth guards every path.
func TestServeWithBasicAuth(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "web.yml")
	if err := os.WriteFile(cfg, []byte("basic_auth_users:\n  prom: "+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if tls, auth, err := ValidateWebConfig(cfg); err != nil || tls || !auth {
		t.Fatalf("basic auth only: tls %v auth %v, %v", tls, auth, err)
	}
	st := published(testNode(1, 0))
	h, _ := Handler(st, Options{Own: true})
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, h, ServeConfig{Listen: "127.0.0.1:0", WebConfigFile: cfg, ErrorLog: io.Discard,
			Started: func(a net.Addr) { addr <- a }})
	}()
	url := "http://" + (<-addr).String() + MetricsPath
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no credentials: %d, want 401", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.SetBasicAuth("prom", "s3cret")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("gpuscope_gpu_power_watts")) {
		t.Errorf("with credentials: %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("Serve did not stop when its context ended")
	}
}

func TestBadWebConfigIsOneLine(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "web.yml")
	_ = os.WriteFile(cfg, []byte("tls_server_config:\n  cert_file: /nonexistent.crt\n  key_file: /nonexistent.key\n"), 0o600)
	_, _, err := ValidateWebConfig(cfg)
	if err == nil || !strings.Contains(err.Error(), cfg) || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad web config: %v", err)
	}
}
