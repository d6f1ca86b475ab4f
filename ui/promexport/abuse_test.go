package promexport

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperFDLimit is the open-files limit the helper exporter runs under, as
// in the measurement of docs/security.md "The exporter under abuse"
// (ulimit -n 200).
const helperFDLimit = 200

// TestHelperServe is not a test on its own: TestIdleConnectionsUnderAnFDLimit
// runs this test binary again as a child that lowers its own RLIMIT_NOFILE
// (a real limit, soft and hard) and serves, printing its address.
func TestHelperServe(t *testing.T) {
	if os.Getenv("GPUSCOPE_SERVE_HELPER") == "" {
		t.Skip("runs only as TestIdleConnectionsUnderAnFDLimit's child")
	}
	lim := syscall.Rlimit{Cur: helperFDLimit, Max: helperFDLimit}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	h, err := Handler(published(testNode(8, 3)), Options{DCGM: true, Own: true})
	if err != nil {
		t.Fatal(err)
	}
	err = Serve(context.Background(), h, ServeConfig{Listen: "127.0.0.1:0", ErrorLog: io.Discard,
		Started: func(a net.Addr) { fmt.Println(a.String()) }})
	t.Fatal(err)
}

// startHelper runs the exporter as a child under helperFDLimit and returns
// its address.
func startHelper(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServe$")
	cmd.Env = append(os.Environ(), "GPUSCOPE_SERVE_HELPER=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("helper exporter did not start: %v", err)
	}
	return strings.TrimSpace(line)
}

// Connections that scrape once and then say nothing, and connections that
// never say anything, must not use up the exporter's file descriptors: a
// real scrape still gets its metrics. Before the connection cap, 191 such
// connections under ulimit -n 200 made it time out with 0 bytes.
func TestIdleConnectionsUnderAnFDLimit(t *testing.T) {
	addr := startHelper(t)
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for i := range 191 + 100 {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		held = append(held, c)
		if i >= 191 { // the last 100 never send a byte
			continue
		}
		// The first 191 scrape once and keep the connection open, silent.
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.WriteString(c, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			continue // evicted already: what the cap is for
		}
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	client := &http.Client{Timeout: 5 * time.Second}
	start := time.Now()
	resp, err := client.Get("http://" + addr + MetricsPath)
	if err != nil {
		t.Fatalf("a real scrape beside %d silent connections: %v", len(held), err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "gpuscope_gpu_power_watts") {
		t.Fatalf("scrape: %d, %d bytes, %v", resp.StatusCode, len(body), err)
	}
	t.Logf("a scrape beside %d silent connections under ulimit -n %d: %d bytes in %v",
		len(held), helperFDLimit, len(body), time.Since(start).Round(time.Millisecond))
}

// serveTest serves h on loopback with cfg's limits and returns its address.
func serveTest(t *testing.T, h http.Handler, cfg ServeConfig) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	done := make(chan error, 1)
	cfg.Listen, cfg.ErrorLog, cfg.Started = "127.0.0.1:0", io.Discard, func(a net.Addr) { addr <- a }
	go func() { done <- Serve(ctx, h, cfg) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case a := <-addr:
		return a.String()
	case err := <-done:
		t.Fatal(err)
	}
	return ""
}

// A keep-alive connection that sends nothing after its answer is closed by
// the server once idle for the idle timeout; before, it was held forever.
func TestIdleConnectionIsClosed(t *testing.T) {
	h, _ := Handler(published(testNode(1, 0)), Options{Own: true})
	addr := serveTest(t, h, ServeConfig{idle: 200 * time.Millisecond})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = io.WriteString(c, "GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
	start := time.Now()
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("an idle keep-alive connection after %v: %v, want the server to close it (EOF)", time.Since(start), err)
	}
}

// Request headers beyond what a scrape needs are refused (431), not read
// into memory up to Go's 1 MB default.
func TestHugeHeadersRefused(t *testing.T) {
	h, _ := Handler(published(testNode(1, 0)), Options{Own: true})
	addr := serveTest(t, h, ServeConfig{})
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+MetricsPath, nil)
	req.Header.Set("X-Padding", strings.Repeat("a", 64<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("64 KiB of headers: %d, want 431", resp.StatusCode)
	}
}

// Scrapes beyond --web.max-requests in flight get 503 at once, over real
// sockets; the ones in flight finish, and a later scrape gets through.
func TestScrapesBeyondMaxRequestsGet503(t *testing.T) {
	const limit = 3
	release, entered := make(chan struct{}), make(chan struct{}, limit)
	slow := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		entered <- struct{}{}
		<-release
		_, _ = io.WriteString(w, "ok\n")
	})
	addr := serveTest(t, limitInFlight(slow, limit), ServeConfig{})
	url := "http://" + addr + MetricsPath
	codes := make(chan int, limit)
	for range limit {
		go func() {
			resp, err := http.Get(url)
			if err != nil {
				codes <- 0
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	for range limit {
		<-entered
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("scrape %d with %d in flight: %d, want 503", limit+1, limit, resp.StatusCode)
	}
	close(release)
	for range limit {
		if c := <-codes; c != http.StatusOK {
			t.Errorf("a scrape in flight: %d, want 200", c)
		}
	}
	h, _ := Handler(published(testNode(1, 0)), Options{Own: true, MaxRequests: 1})
	if c := get(t, h, MetricsPath).Code; c != http.StatusOK {
		t.Errorf("one scrape under --web.max-requests 1: %d", c)
	}
}
