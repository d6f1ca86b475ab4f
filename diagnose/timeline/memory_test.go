package timeline

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// synthetic feeds a training loop's events straight to add, as the
// synthetic trace of sampler/trace/tracetest writes them (a step, its
// DataLoader op, then per kernel its operator, launch and kernel), without
// a file or a list: what a test measures is the Builder's memory alone.
func synthetic(steps, kernels int, add func(trace.Event) error) {
	names := []string{"volta_sgemm_128x64_nn", "vectorized_elementwise_kernel", "bn_fw_tr_1C11_kernel_NCHW", "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"}
	ts, corr := 1000.0, int64(1)
	for s := range steps {
		start, dur := ts, float64(kernels)*12+300
		add(trace.Event{Kind: trace.ProfilerStep, Name: "ProfilerStep#" + strconv.Itoa(s), TS: start, Dur: dur, Stream: -1, Device: -1})
		add(trace.Event{Kind: trace.Annotation, Name: "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", TS: ts + 1, Dur: 200, Stream: -1, Device: -1})
		ts += 250
		for k := range kernels {
			i := (s*kernels + k) % len(names)
			add(trace.Event{Kind: trace.CPUOp, Name: "aten::mm", TS: ts, Dur: 9, Stream: -1, Device: -1})
			add(trace.Event{Kind: trace.Runtime, Name: "cudaLaunchKernel", TS: ts + 1, Dur: 5, Corr: corr, Stream: -1, Device: -1})
			stream := 7
			if i == len(names)-1 {
				stream = 20
			}
			add(trace.Event{Kind: trace.Kernel, Name: names[i], TS: ts + 8, Dur: float64(2 + i*3), Corr: corr, Stream: stream})
			ts += 12
			corr++
		}
		ts = start + dur + 5
	}
}

// heapAfter is the live heap once kernels kernels (in steps of 10,000) are
// added to a Builder, which is still held.
func heapAfter(kernels int) (uint64, *Builder) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b := New()
	synthetic(kernels/10000, 10000, b.Add)
	runtime.GC()
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc), b
}

// TestBuilderMemoryFlatInKernels: what the Builder holds does not grow with
// the trace: four times the kernels, not four times the memory. A Builder
// that kept every GPU event (56 bytes each) grows by 17 MB between the two.
func TestBuilderMemoryFlatInKernels(t *testing.T) {
	if testing.Short() {
		t.Skip("adds half a million kernels")
	}
	small, b1 := heapAfter(100_000)
	large, b4 := heapAfter(400_000)
	t.Logf("held after 100k kernels: %.1f MB, after 400k: %.1f MB", float64(small)/1e6, float64(large)/1e6)
	if grew := int64(large) - int64(small); grew > 4<<20 {
		t.Errorf("the Builder holds %.1f MB after 100k kernels, %.1f MB after 400k: it grows with the trace", float64(small)/1e6, float64(large)/1e6)
	}
	if r1, r4 := b1.Rank(trace.Meta{}), b4.Rank(trace.Meta{}); r4.Kernels.Count != 4*r1.Kernels.Count+30000 || r4.Approximate != 0 {
		t.Errorf("analysed %d and %d kernels (%d approximate), want the steps but the last", r1.Kernels.Count, r4.Kernels.Count, r4.Approximate)
	}
}

// BenchmarkBuilderMemory holds the memory figure of docs/benchmarks.md
// ("The profiler trace streamed"): the Builder's peak heap while a million
// kernels (100 steps) are added, and per kernel; the time is not the point.
func BenchmarkBuilderMemory(b *testing.B) {
	const steps, kernels = 100, 10000
	var peak uint64
	for b.Loop() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		bl, n := New(), 0
		synthetic(steps, kernels, func(e trace.Event) error {
			if n++; n%(1<<17) == 0 {
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc-min(ms.HeapAlloc, base))
			}
			return bl.Add(e)
		})
		bl.Rank(trace.Meta{})
	}
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(peak)/(steps*kernels), "peak-heap-B/kernel")
}
