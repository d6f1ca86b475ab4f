package trace

import (
	"bytes"
	"runtime"
	"strconv"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/benchtest"
	"github.com/gpuscope/gpuscope/sampler/trace/tracetest"
)

// BenchmarkRead reads a generated trace (3 steps of 10000 kernels, 90,000
// events, 30 MB of JSON) from memory, its events counted and dropped: the
// reader alone, with one worker and with one per core. cpu-ns/op is every
// goroutine's CPU; ns/op the wall (docs/benchmarks.md, "The trace read on
// every core").
func BenchmarkRead(b *testing.B) {
	var in bytes.Buffer
	if _, err := tracetest.Write(&in, 3, 10000); err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
			b.SetBytes(int64(in.Len()))
			b.ReportAllocs()
			cpu0 := benchtest.ProcessCPU(b)
			for b.Loop() {
				n := 0
				if _, err := read(bytes.NewReader(in.Bytes()), func(Event) error { n++; return nil }, workers, blockSize); err != nil || n == 0 {
					b.Fatal(n, err)
				}
			}
			b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
