package trace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
	"github.com/gpuscope/gpuscope/sampler/trace/tracetest/nsystest"
)

// benchPair writes one workload (20 steps of 2000 GEMMs: 120,320 events)
// as a Kineto trace and as an nsys export.
func benchPair(b *testing.B) (kineto, nsys string) {
	dir := b.TempDir()
	evs := nsystest.Workload(20, 2000)
	kineto, nsys = filepath.Join(dir, "run.json"), filepath.Join(dir, "run.sqlite")
	f, err := os.Create(kineto)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := nsystest.WriteKineto(f, evs); err != nil {
		b.Fatal(err)
	}
	if err := nsystest.WriteNsys(nsys, evs, true); err != nil {
		b.Fatal(err)
	}
	return kineto, nsys
}

// BenchmarkReadNsysVsKineto reads the same events from a Kineto trace and
// from an Nsight Systems export (docs/benchmarks.md).
func BenchmarkReadNsysVsKineto(b *testing.B) {
	kineto, nsys := benchPair(b)
	for _, c := range []struct{ name, path string }{{"kineto", kineto}, {"nsys", nsys}} {
		b.Run(c.name, func(b *testing.B) {
			st, err := os.Stat(c.path)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			b.ReportAllocs()
			events := 0
			for b.Loop() {
				m, err := trace.ReadFile(c.path, func(trace.Event) error { return nil })
				if err != nil {
					b.Fatal(err)
				}
				events = m.Events
			}
			b.ReportMetric(float64(events), "events")
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
