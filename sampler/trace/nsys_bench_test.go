package trace_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
	"github.com/gpuscope/gpuscope/sampler/trace/tracetest/nsystest"
)

var (
	pairOnce             sync.Once
	pairDir, pairErr     = "", error(nil)
	pairKineto, pairNsys string
)

// benchPair writes one workload (20 steps of 2000 GEMMs: 120,320 events)
// as a Kineto trace and as an nsys export, once per run.
func benchPair(b *testing.B) (kineto, nsys string) {
	pairOnce.Do(func() {
		pairDir, pairErr = os.MkdirTemp("", "gpuscope-nsys-bench")
		if pairErr != nil {
			return
		}
		evs := nsystest.Workload(20, 2000)
		pairKineto, pairNsys = filepath.Join(pairDir, "run.json"), filepath.Join(pairDir, "run.sqlite")
		f, err := os.Create(pairKineto)
		if err != nil {
			pairErr = err
			return
		}
		defer f.Close()
		if pairErr = nsystest.WriteKineto(f, evs); pairErr == nil {
			pairErr = nsystest.WriteNsys(pairNsys, evs, true)
		}
	})
	if pairErr != nil {
		b.Fatal(pairErr)
	}
	return pairKineto, pairNsys
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
