package tracetest

import (
	"bytes"
	"os"
	"strconv"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// The generated trace reads back with the counts it was written with.
func TestGeneratedTraceReads(t *testing.T) {
	var b bytes.Buffer
	if _, err := Write(&b, 3, 50); err != nil {
		t.Fatal(err)
	}
	kernels, steps := 0, 0
	m, err := trace.ReadStream(&b, func(e trace.Event) error {
		switch e.Kind {
		case trace.Kernel:
			kernels++
		case trace.ProfilerStep:
			steps++
		}
		return nil
	})
	if err != nil || kernels != 150 || steps != 3 || m.Rank != 0 || m.Platform != "cuda" {
		t.Fatalf("%d kernels, %d steps, %+v, %v", kernels, steps, m, err)
	}
}

// TestWriteBigTrace writes the benchmark's file for docs/benchmarks.md when
// GPUSCOPE_TRACE_OUT names it (GPUSCOPE_TRACE_STEPS steps of 10000 kernels;
// 300 make about 1 GB uncompressed).
func TestWriteBigTrace(t *testing.T) {
	out := os.Getenv("GPUSCOPE_TRACE_OUT")
	if out == "" {
		t.Skip("GPUSCOPE_TRACE_OUT not set")
	}
	steps, _ := strconv.Atoi(os.Getenv("GPUSCOPE_TRACE_STEPS"))
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw, _ := gzip.NewWriterLevel(f, gzip.DefaultCompression)
	n, err := Write(zw, max(steps, 1), 10000)
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes uncompressed", out, n)
}
