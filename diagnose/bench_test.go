package diagnose

import "testing"

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
	for b.Loop() {
		end := 120 + i%120
		e.Evaluate(w[end-120 : end])
		i++
	}
}
