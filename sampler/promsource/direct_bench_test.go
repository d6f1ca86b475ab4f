package promsource

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
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
	targets, _ := ParseTargets("a:1")
	kept := scrapeBody(b, body)
	r := newScrapeRing(targets[0].Instance, nil)
	t0 := time.Unix(1_700_000_000, 0)
	for i := range 3600 {
		r.add(t0.Add(time.Duration(i)*time.Second), kept)
	}
	now := t0.Add(3600 * time.Second)
	for b.Loop() {
		r.snapshots(fleetsnap.NodeKey{Instance: targets[0].Instance}, now.Add(-4*time.Minute), nil)
	}
	b.ReportMetric(float64(ringBytes(r)), "bytes/node")
	b.ReportMetric(float64(len(r.scrapes)), "scrapes/node")
	b.ReportMetric(float64(len(kept.vals)), "series/scrape")
	runtime.KeepAlive(r)
}

// ringBytes is what r holds, counted from its slices (a heap difference
// is blurred by the collector's timing).
func ringBytes(r *scrapeRing) int {
	n := cap(r.scrapes) * int(unsafe.Sizeof(scrapeRec{}))
	layouts := map[*seriesRef]bool{}
	for _, s := range r.scrapes {
		n += cap(s.vals)
		if len(s.series) > 0 && !layouts[&s.series[0]] {
			layouts[&s.series[0]] = true
			n += cap(s.series) * int(unsafe.Sizeof(seriesRef{}))
		}
	}
	for _, p := range r.sets.pairs {
		n += int(unsafe.Sizeof(p)) + len(p)
	}
	return n + 2*(cap(r.sets.refs)+cap(r.sets.byPair)+cap(r.sets.bySet)) + 4*cap(r.sets.ends)
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
	kept := scrapeBody(b, body)
	n := d.nodes[targets[0].Instance]
	t0 := time.Now().Add(-time.Hour)
	n.first, n.tried = t0, true
	for i := range 3600 {
		n.ring.add(t0.Add(time.Duration(i)*time.Second), kept)
	}
	opts := Options{}.withDefaults()
	for b.Loop() {
		if f := d.build(time.Now(), opts); len(f.Nodes) != 1 || len(f.Nodes[0].GPUs) != 8 {
			b.Fatalf("%+v", f)
		}
	}
}
