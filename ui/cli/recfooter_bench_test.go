package cli

import (
	"os"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler/benchtest"
	"github.com/gpuscope/gpuscope/sampler/importer"
)

// BenchmarkFooterState is the footer's own cost for the recording in
// GPUSCOPE_BENCH_RECORDING (a .jsonl.gz this build wrote) as record built it
// first: "readback" reads the file back (inflate, decode, build). The
// footer is now built from the values as they are written, within
// BenchmarkRecordHour (docs/benchmarks.md, "Recording a day: the footer
// from the values").
func BenchmarkFooterState(b *testing.B) {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		b.Skip("GPUSCOPE_BENCH_RECORDING names no recording")
	}
	b.Run("readback", func(b *testing.B) {
		cpu0 := benchtest.ProcessCPU(b)
		for b.Loop() {
			in, err := importer.OpenFile(path)
			if err != nil {
				b.Fatal(err)
			}
			r, err := summary.BuildFrom(in, summary.Options{})
			in.Close()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := summary.EncodeState(summary.StateOf(r)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
	})
}
