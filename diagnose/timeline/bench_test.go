package timeline

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/gpuscope/gpuscope/sampler/trace"
	"github.com/gpuscope/gpuscope/sampler/trace/tracetest"
)

// BenchmarkReadAndAnalyse reads a generated gzipped trace (10 steps of
// 10000 kernels, each with its operator and launch: 300k events, ~100 MB
// uncompressed) and computes its figures and findings, as `report` does.
// docs/benchmarks.md has the 1 GB measurement beside gzip -dc.
func BenchmarkReadAndAnalyse(b *testing.B) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	n, err := tracetest.Write(zw, 10, 10000)
	if err != nil || zw.Close() != nil {
		b.Fatal(err)
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		bl := New()
		m, err := trace.ReadStream(bytes.NewReader(gz.Bytes()), bl.Add)
		if err != nil {
			b.Fatal(err)
		}
		if fs := Findings([]Rank{bl.Rank(m)}); len(fs) == 0 {
			b.Fatal("no findings")
		}
	}
}

// BenchmarkStrips bins 1M kernels on 4 streams, each 10 µs with 2 µs
// gaps, out of order by stream as a trace interleaves them, into the
// replay's strips, then draws them at 200 columns: what `replay TRACE`
// adds to the read (docs/benchmarks.md, "replay TRACE").
func BenchmarkStrips(b *testing.B) {
	names := []string{"volta_sgemm_128x64_nn", "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", "Memcpy HtoD (Pageable -> Device)"}
	evs := make([]trace.Event, 1<<20)
	for i := range evs {
		evs[i] = trace.Event{Kind: trace.Kernel, Name: names[i%3], Stream: 7 + i%4, TS: float64(i/4) * 12, Dur: 10}
	}
	b.ReportAllocs()
	for b.Loop() {
		s := NewStrips()
		for _, e := range evs {
			s.Add(0, e)
		}
		from, to, _ := s.Span()
		for _, st := range s.List() {
			_ = st.Columns(from, to, 200)
		}
	}
}
