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
