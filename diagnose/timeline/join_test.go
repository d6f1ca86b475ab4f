package timeline

import (
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// Launches join their GPU events whichever comes first, a CUDA graph's one
// launch joins all its kernels, and nothing joined is kept twice: the maps
// hold only what is still in flight.
func TestLaunchesJoinAndLeaveNothingBehind(t *testing.T) {
	b := New()
	add := func(e trace.Event) {
		if err := b.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	rt := func(corr int64, ts float64) {
		add(trace.Event{Kind: trace.Runtime, Name: "cudaLaunchKernel", TS: ts, Dur: 5, Corr: corr})
	}
	k := func(corr int64, ts float64) {
		add(trace.Event{Kind: trace.Kernel, Name: "k", TS: ts, Dur: 2, Corr: corr, Stream: 7})
	}
	rt(1, 0)
	k(1, 10) // launch first
	k(2, 20)
	rt(2, 15) // kernel first
	rt(3, 30)
	k(3, 40) // a graph: one launch, three kernels
	k(3, 45)
	k(3, 50)
	k(4, 60)
	k(4, 61) // a graph whose kernels come before its launch
	rt(4, 55)
	k(5, 70) // never launched in this trace
	want := map[float64]float64{10: 0, 20: 15, 40: 30, 45: 30, 50: 30, 60: 55, 61: 55}
	var gpu []gpuEvent // those counted, still in the order heap, and the one waiting
	for _, o := range b.order {
		gpu = append(gpu, o.g)
	}
	for _, h := range b.queue.items[b.queue.head:] {
		gpu = append(gpu, h.g)
	}
	if len(gpu) != 8 {
		t.Fatalf("%d GPU events held, want 8", len(gpu))
	}
	for _, g := range gpu {
		lts, ok := want[g.ts]
		if ok != g.launched || (ok && (g.lts != lts || g.ldur != 5)) {
			t.Errorf("kernel at %v: launched %v at %v (%v µs); want %v at %v", g.ts, g.launched, g.lts, g.ldur, ok, lts)
		}
	}
	if b.launches.len() != 0 || len(b.pending) != 1 {
		t.Errorf("in flight after the trace: %d launches, %d pending; want 0 and 1 (the kernel never launched)", b.launches.len(), len(b.pending))
	}
}
