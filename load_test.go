package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestServeLoad measures `gpuscope serve --demo` under N concurrent
// keep-alive clients for a few seconds: scrapes/s by status, transport
// errors, and the server's memory high-water mark (VmHWM). It is the
// command behind docs/security.md's load figures, not part of the suite:
//
//	GPUSCOPE_LOAD=500 go test -count=1 -run TestServeLoad -v .
//
// GPUSCOPE_LOAD_ARGS adds serve flags (e.g. "--web.max-requests 0"),
// GPUSCOPE_LOAD_GZIP=1 asks for gzip, GPUSCOPE_LOAD_BIN measures another
// build.
func TestServeLoad(t *testing.T) {
	clients, _ := strconv.Atoi(os.Getenv("GPUSCOPE_LOAD"))
	if clients <= 0 {
		t.Skip("set GPUSCOPE_LOAD=N (clients) to measure")
	}
	bin := os.Getenv("GPUSCOPE_LOAD_BIN") // another build to compare with
	if bin == "" {
		bin = buildBinary(t)
	}
	args := append([]string{"serve", "--demo", "--listen", "127.0.0.1:0"}, strings.Fields(os.Getenv("GPUSCOPE_LOAD_ARGS"))...)
	cmd := exec.Command(bin, args...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSuffix(regexp.MustCompile(`http://\S+`).FindString(line), ":") + "/metrics"
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	time.Sleep(500 * time.Millisecond) // the first tick
	tr := &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: os.Getenv("GPUSCOPE_LOAD_GZIP") == ""}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	const dur = 5 * time.Second
	var ok, busy, other, errs, bytes atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(dur)
	for range clients {
		wg.Go(func() {
			for time.Now().Before(stop) {
				resp, err := client.Get(url)
				if err != nil {
					errs.Add(1)
					continue
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				bytes.Add(n)
				switch resp.StatusCode {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusServiceUnavailable:
					busy.Add(1)
				default:
					other.Add(1)
				}
			}
		})
	}
	wg.Wait()
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	hwm := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status)
	total := ok.Load() + busy.Load() + other.Load()
	t.Logf("%d clients, %v: %.0f answers/s (200: %d, 503: %d, other: %d), %d transport errors, %.0f KB per 200, server VmHWM %s kB",
		clients, dur, float64(total)/dur.Seconds(), ok.Load(), busy.Load(), other.Load(), errs.Load(),
		float64(bytes.Load())/float64(max(ok.Load(), 1))/1024, hwm[1])
}
