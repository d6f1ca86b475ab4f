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

// With Syncs, the trace has the ResNet-50 trace's share of sync-making
// operators, and a sync per step inside its aten::item.
func TestGeneratedTraceSyncs(t *testing.T) {
	var b bytes.Buffer
	if _, err := WriteWith(&b, 3, 180, Options{Syncs: true}); err != nil {
		t.Fatal(err)
	}
	kernels, ops, syncs := 0, map[string]int{}, 0
	_, err := trace.ReadStream(&b, func(e trace.Event) error {
		switch {
		case e.Kind == trace.Kernel:
			kernels++
		case e.Kind == trace.CPUOp:
			ops[e.Name]++
		case e.Name == "cudaStreamSynchronize":
			syncs++
		}
		return nil
	})
	if err != nil || kernels != 540 || ops["aten::to"] != 30 || ops["aten::copy_"] != 30 || ops["aten::item"] != 3 || syncs != 3 {
		t.Fatalf("%d kernels, operators %v, %d syncs, %v", kernels, ops, syncs, err)
	}
}

// TestWriteBigTrace writes the benchmark's file for docs/benchmarks.md when
// GPUSCOPE_TRACE_OUT names it (GPUSCOPE_TRACE_STEPS steps of 10000 kernels;
// 300 make about 1 GB uncompressed; GPUSCOPE_TRACE_SYNCS=1 adds the
// sync-making operators, Options.Syncs).
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
	n, err := WriteWith(zw, max(steps, 1), 10000, Options{Syncs: os.Getenv("GPUSCOPE_TRACE_SYNCS") == "1"})
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes uncompressed", out, n)
}
