package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/promsource"
	"github.com/gpuscope/gpuscope/ui/cli"
)

// scrapeFleet is benchNodes dcgm-exporter targets served from this
// process: one listener a node on loopback (a target is named by its
// host:port), each answering the dcgm-exporter text of 8 H200s in
// sampler/promtext/testdata with its own host name and GPU UUIDs, gzipped
// when asked as dcgm-exporter does.
type scrapeFleet struct {
	targets string // the --nodes file, one host:port a line
	list    []promsource.Target
}

func serveScrapeFleet(tb testing.TB, nodes int) scrapeFleet {
	body, err := os.ReadFile("sampler/promtext/testdata/dcgm-exporter.prom")
	if err != nil {
		tb.Fatal(err)
	}
	text := string(body)
	byPort := map[int]int{} // listener port → node
	var addrs []string
	var lns []net.Listener
	for i := range nodes {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatalf("listener %d of %d: %v", i, nodes, err)
		}
		lns = append(lns, l)
		byPort[l.Addr().(*net.TCPAddr).Port] = i
		addrs = append(addrs, l.Addr().String())
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		tcp, _ := local.(*net.TCPAddr)
		if tcp == nil {
			http.NotFound(w, r)
			return
		}
		node := byPort[tcp.Port]
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		var out io.Writer = w
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") { // as dcgm-exporter's promhttp does
			w.Header().Set("Content-Encoding", "gzip")
			gz := gzip.NewWriter(w)
			defer gz.Close()
			out = gz
		}
		_, _ = strings.NewReplacer(`Hostname="gpu-node-57"`, fmt.Sprintf(`Hostname="gpu-%04d"`, node),
			`UUID="GPU-`, fmt.Sprintf(`UUID="GPU-%04d-`, node)).WriteString(out, text)
	})}
	for _, l := range lns {
		go func() { _ = srv.Serve(l) }()
	}
	tb.Cleanup(func() { _ = srv.Close() })
	file := filepath.Join(tb.TempDir(), "nodes.txt")
	if err := os.WriteFile(file, []byte(strings.Join(addrs, "\n")+"\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	list, err := promsource.ParseTargets(strings.Join(addrs, ","))
	if err != nil {
		tb.Fatal(err)
	}
	return scrapeFleet{targets: file, list: list}
}

// buildRelease builds the binary as released (docs/benchmarks.md: its
// file-backed pages count in RSS, and it has fewer than the dev build's).
func buildRelease(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "gpuscope-release")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_CFLAGS=-Wno-deprecated-declarations")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("release build: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkFleet1000NodesScraped is `gpuscope --nodes @FILE --once` over
// 1,000 dcgm-exporter targets on loopback: one scrape of each, the
// fleet's figures, the diagnosis of the most wasteful dcgm-only nodes from
// what was scraped, and the heap the result holds; then the binary's own
// peak RSS for the same fleet, dev and release builds. Run it alone:
//
//	go test -run '^$' -bench Fleet1000NodesScraped -benchtime 3x .
func BenchmarkFleet1000NodesScraped(b *testing.B) {
	fl := serveScrapeFleet(b, benchNodes)
	var load time.Duration
	var heap uint64
	for b.Loop() {
		src := promsource.NewDirect(fl.list, 30*time.Second, "")
		t0 := time.Now()
		v, err := cli.LoadFleet(context.Background(), src, time.Second)
		if err != nil {
			b.Fatal(err)
		}
		load += time.Since(t0)
		if len(v.Fleet.Nodes) != benchNodes || v.Counts.GPUs != benchNodes*8 || v.Counts.NodesDown != 0 {
			b.Fatalf("%d nodes, %d GPUs, %d down", len(v.Fleet.Nodes), v.Counts.GPUs, v.Counts.NodesDown)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = max(heap, ms.HeapInuse)
		runtime.KeepAlive(src)
		runtime.KeepAlive(v)
	}
	b.ReportMetric(load.Seconds()/float64(b.N), "load-s/op")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
	b.StopTimer()
	args := []string{"--nodes", "@" + fl.targets, "--scrape-timeout", "30s", "--once"}
	b.ReportMetric(peakRSS(b, buildBinary(b), args...)/(1<<20), "once-maxrss-MB")
	b.ReportMetric(peakRSS(b, buildRelease(b), args...)/(1<<20), "release-once-maxrss-MB")
}
