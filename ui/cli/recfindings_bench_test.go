package cli

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/benchtest"
	"github.com/gpuscope/gpuscope/sampler/node"
)

// BenchmarkFindingsText is the writer's text of the mixed demo's findings,
// one op a simulated second (its first ten minutes, diagnosed beforehand):
// the findings only seen again, and the throttled GPU's worded anew.
// docs/benchmarks.md, "Recording a day: the findings' JSON".
func BenchmarkFindingsText(b *testing.B) {
	start := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	demo, err := node.NewDemo("mixed", 1, start)
	if err != nil {
		b.Fatal(err)
	}
	s := demo.Sampler("mixed")
	tr := diagnose.NewTracker(diagnose.Options{})
	var frames [][]diagnose.Finding
	for at := start; at.Before(start.Add(10 * time.Minute)); at = at.Add(time.Second) {
		frames = append(frames, tr.Push(s.Tick(at)))
	}
	var c findingsText
	cpu0 := benchtest.ProcessCPU(b)
	i := 0
	for b.Loop() {
		if _, err := c.encode(frames[i%len(frames)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}
