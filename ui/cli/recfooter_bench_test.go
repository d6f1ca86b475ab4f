package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler/benchtest"
	"github.com/gpuscope/gpuscope/sampler/importer"
)

// BenchmarkFooterState is the footer's own cost for the recording in
// GPUSCOPE_BENCH_RECORDING (a .jsonl.gz this build wrote): "readback" reads
// the file back at close as record did before (inflate, decode, build);
// "streamed" hands its text, as the writer's tee does, through the pipe to
// buildFooter (decode, build). docs/benchmarks.md, "Recording a day: the
// footer built as the lines are written".
func BenchmarkFooterState(b *testing.B) {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		b.Skip("GPUSCOPE_BENCH_RECORDING names no recording")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	text, err := io.ReadAll(z)
	f.Close()
	if err != nil {
		b.Fatal(err)
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
	b.Run("streamed", func(b *testing.B) {
		cpu0 := benchtest.ProcessCPU(b)
		for b.Loop() {
			pr, pw, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			done := make(chan []byte, 1)
			go func() { done <- buildFooter(pr, path, "bench") }()
			bw := bufio.NewWriterSize(pw, footerChunk)
			for line := range bytes.Lines(text) { // as the tee gets them
				bw.Write(line)
			}
			bw.Flush()
			pw.Close()
			if <-done == nil {
				b.Fatal("no state")
			}
		}
		b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
	})
}
