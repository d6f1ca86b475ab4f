package promsource

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/promtext"
)

// BenchmarkDirectScrape is one scrape of a gpuscope serve answer for 8
// GPUs (both name sets, ~950 lines): fetched over loopback, parsed, one
// name set kept and filed in the ring.
func BenchmarkDirectScrape(b *testing.B) {
	body, err := os.ReadFile("../promtext/testdata/gpuscope-serve.prom")
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	defer srv.Close()
	targets, _ := ParseTargets(strings.TrimPrefix(srv.URL, "http://"))
	d := NewDirect(targets, time.Second, "")
	b.ReportAllocs()
	for b.Loop() {
		d.scrape(context.Background(), targets[0])
	}
}

// BenchmarkRingHour is what one node's ring holds after an hour of 1 s
// scrapes of that answer (reported as bytes/node), and the time to rebuild
// its snapshots for a node's dashboard.
func BenchmarkRingHour(b *testing.B) {
	body, err := os.ReadFile("../promtext/testdata/gpuscope-serve.prom")
	if err != nil {
		b.Fatal(err)
	}
	var samples []scraped
	present := map[string]bool{}
	_ = promtext.Parse(bytes.NewReader(body), func(s promtext.Sample) error {
		if _, ok := seriesRoles[s.Name]; ok {
			m := metric{metricNameLabel: s.Name, "instance": "a:1"}
			for _, l := range s.Labels {
				m[l.Name] = l.Value
			}
			samples, present[s.Name] = append(samples, scraped{m: m, v: s.Value, name: s.Name}), true
		}
		return nil
	})
	kept := samples[:0]
	for _, s := range samples {
		if bestPresent(s.name, present) {
			kept = append(kept, s)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := newScrapeRing()
	t0 := time.Unix(1_700_000_000, 0)
	for i := range 3600 {
		r.add(t0.Add(time.Duration(i)*time.Second), "a:1", kept)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	now := t0.Add(3600 * time.Second)
	for b.Loop() {
		r.snapshots(keyOf(kept[0].m), now.Add(-4*time.Minute), nil)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc), "bytes/node")
	b.ReportMetric(float64(len(r.scrapes)), "scrapes/node")
	b.ReportMetric(float64(len(kept)), "series/scrape")
	runtime.KeepAlive(r)
}

// BenchmarkDirectFleetHour is one refresh's figures for one node with an
// hour of 1 s scrapes kept (the scrape itself is BenchmarkDirectScrape).
func BenchmarkDirectFleetHour(b *testing.B) {
	body, err := os.ReadFile("../promtext/testdata/gpuscope-serve.prom")
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	defer srv.Close()
	targets, _ := ParseTargets(strings.TrimPrefix(srv.URL, "http://"))
	d := NewDirect(targets, time.Second, "")
	d.scrape(context.Background(), targets[0])
	n := d.nodes[targets[0].Instance]
	kept := n.ring.latest()
	t0 := time.Now().Add(-time.Hour)
	n.ring = newScrapeRing()
	n.first = t0
	for i := range 3600 {
		n.ring.add(t0.Add(time.Duration(i)*time.Second), targets[0].Instance, kept)
	}
	opts := Options{}.withDefaults()
	for b.Loop() {
		if f := d.build(time.Now(), opts); len(f.Nodes) != 1 || len(f.Nodes[0].GPUs) != 8 {
			b.Fatalf("%+v", f)
		}
	}
}
