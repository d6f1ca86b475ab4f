package promexport

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// /metrics is gzip-compressed when the scraper accepts it (Prometheus
// does), as client_golang and dcgm-exporter do; decompressed, it is the
// same exposition byte for byte, and without Accept-Encoding it is sent as is.
func TestMetricsGzipWhenAccepted(t *testing.T) {
	h, _ := Handler(published(testNode(8, 3)), Options{Own: true, DCGM: true})
	for _, accept := range []string{"", "application/openmetrics-text; version=1.0.0"} {
		plain := get(t, h, MetricsPath, "Accept", accept)
		if ce := plain.Header().Get("Content-Encoding"); ce != "" {
			t.Fatalf("no Accept-Encoding: Content-Encoding %q", ce)
		}
		gz := get(t, h, MetricsPath, "Accept", accept, "Accept-Encoding", "gzip")
		if ce := gz.Header().Get("Content-Encoding"); ce != "gzip" {
			t.Fatalf("Accept-Encoding gzip: Content-Encoding %q, %d bytes", ce, gz.Body.Len())
		}
		if ct := gz.Header().Get("Content-Type"); ct != plain.Header().Get("Content-Type") {
			t.Errorf("Content-Type %q compressed, %q plain", ct, plain.Header().Get("Content-Type"))
		}
		size := gz.Body.Len()
		zr, err := gzip.NewReader(gz.Body)
		if err != nil {
			t.Fatal(err)
		}
		back, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(back, plain.Body.Bytes()) {
			t.Fatalf("decompressed differs from the plain exposition (%v): %d vs %d bytes", err, len(back), plain.Body.Len())
		}
		t.Logf("accept %q: %d bytes plain, %d gzip", accept, plain.Body.Len(), size)
	}
}
