package promexport

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/benchtest"
)

// BenchmarkScrape is one /metrics request of a node of 8 GPUs and 200
// processes (25 a GPU, each with a DataLoader worker), both name sets, in
// the text format Prometheus 2 negotiates. The goal is < 1 ms of CPU
// (docs/benchmarks.md).
func BenchmarkScrape(b *testing.B) {
	benchScrape(b, "")
}

// BenchmarkScrapeOpenMetrics is the same in OpenMetrics.
func BenchmarkScrapeOpenMetrics(b *testing.B) {
	benchScrape(b, "application/openmetrics-text; version=1.0.0")
}

// BenchmarkScrapeGzip is the text format gzipped, as Prometheus asks.
func BenchmarkScrapeGzip(b *testing.B) {
	benchScrape(b, "", "Accept-Encoding", "gzip")
}

func benchScrape(b *testing.B, accept string, header ...string) {
	st := published(testNode(8, 25))
	h, err := Handler(st, Options{DCGM: true, Own: true, Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, MetricsPath, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := &discardWriter{header: http.Header{}}
	b.ReportAllocs()
	cpu0 := benchtest.ProcessCPU(b)
	for b.Loop() {
		clear(w.header) // a fresh answer's headers (the gzip wrapper reads them)
		h.ServeHTTP(w, req)
	}
	// CPU time, not wall time: the goal is a CPU budget, and on a shared
	// machine the wall time also counts waiting for a core.
	b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(w.n)/float64(b.N), "bytes/scrape")
}

// discardWriter is a ResponseWriter that keeps nothing, so the benchmark
// measures the exporter and not a recorder's growing buffer.
type discardWriter struct {
	header http.Header
	n      int
}

func (d *discardWriter) Header() http.Header { return d.header }
func (d *discardWriter) WriteHeader(int)     {}
func (d *discardWriter) Write(p []byte) (int, error) {
	d.n += len(p)
	return len(p), nil
}
