package diagnose

import (
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/benchtest"
)

// BenchmarkEvaluate8GPUs120s: the budget is < 1 ms per evaluation
// (docs/benchmarks.md, Summary).
func BenchmarkEvaluate8GPUs120s(b *testing.B) {
	w := makeWindow(120, healthyNode()...)
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(w)
	}
}

func BenchmarkEngineEvaluate8GPUs120s(b *testing.B) {
	w := makeWindow(240, append(healthyNode(), inputStarvedOn(3))...)
	e := NewEngine(Options{})
	b.ReportAllocs()
	i := 0
	cpu0 := benchtest.ProcessCPU(b)
	for b.Loop() {
		end := 120 + i%120
		e.Evaluate(w[end-120 : end])
		i++
	}
	// CPU beside wall: on the shared box wall time is mostly the neighbours'.
	b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkSlimHost1000: a host of 1,075 processes (the host sampler's
// benchmark's box) slimmed to figures, as the History does once a second.
func BenchmarkSlimHost1000(b *testing.B) {
	h := &sampler.Host{Procs: map[int]*sampler.Proc{}}
	for i := range 1075 {
		pid := 1 + i*37%40000
		h.Procs[pid] = &sampler.Proc{PID: pid, State: "S", CPU: sampler.Some(float64(i % 7))}
	}
	b.ReportAllocs()
	for b.Loop() {
		slimHost(h)
	}
}
