package promexport

import (
	"net/http"
	"testing"
)

func TestNegotiationPicksWhatTheScraperPrefers(t *testing.T) {
	for accept, wantOM := range map[string]bool{
		// Prometheus 2.x's scrape header, then 3.x's (scrape_protocols default).
		"application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1": true,
		"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,application/openmetrics-text;version=0.0.1;q=0.5," +
			"text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2": true,
		"":                             false, // curl, a browser: the text format
		"text/plain":                   false,
		"*/*":                          false,
		"application/openmetrics-text": true,
		// q orders, not position; q=0 is "not this".
		"text/plain;q=0.5, application/openmetrics-text;version=1.0.0": true,
		"application/openmetrics-text;q=0, text/plain":                 false,
		// A version gpuscope does not write yields to the next choice.
		"application/openmetrics-text;version=2.0.0,text/plain": false,
		// Protobuf only: the text format, as client_golang falls back.
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited": false,
	} {
		if got := wantsOpenMetrics(accept); got != wantOM {
			t.Errorf("Accept %q: OpenMetrics %v, want %v", accept, got, wantOM)
		}
	}
	h, _ := Handler(published(testNode(1, 0)), Options{Own: true})
	for accept, ct := range map[string]string{"application/openmetrics-text;version=1.0.0": contentTypeOpenMetrics, "": contentTypeText} {
		rec := get(t, h, MetricsPath, "Accept", accept)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != ct {
			t.Errorf("Accept %q: %d %q, want %q", accept, rec.Code, rec.Header().Get("Content-Type"), ct)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{"gzip": true, "deflate, gzip;q=0.8": true, "GZIP": true, "x-gzip": true, "*": true,
		"": false, "identity": false, "gzip;q=0": false, "br, zstd": false} {
		if acceptsGzip(h) != want {
			t.Errorf("Accept-Encoding %q: gzip %v, want %v", h, !want, want)
		}
	}
	// An answer without a body keeps its status and is not gzipped.
	h, _ := Handler(NewState(), Options{Own: true})
	rec := get(t, h, ReadyPath, "Accept-Encoding", "gzip")
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("not ready, gzip asked: %d", rec.Code)
	}
	rec = get(t, h, "/nope", "Accept-Encoding", "gzip")
	if rec.Code != http.StatusNotFound || rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("404 through gzip: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
}
