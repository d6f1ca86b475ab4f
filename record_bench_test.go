package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/benchtest"
)

// BenchmarkRecordHour is `gpuscope record --demo=mixed --duration 1h` in
// this process: the simulator, the NVML reader, the diagnosis every
// simulated second and the writer's JSON and gzip, 3,600 snapshots of 8
// GPUs. cpu-ns/op counts the writer's goroutine too; a day is 24 of these
// (docs/benchmarks.md, "Recording a day: the diagnosis's share").
func BenchmarkRecordHour(b *testing.B) {
	out := filepath.Join(b.TempDir(), "hour.jsonl.gz")
	cpu0 := benchtest.ProcessCPU(b)
	for b.Loop() {
		if rc := run([]string{"record", "--force", "-o", out, "--demo=mixed", "--duration", "1h"}, io.Discard, io.Discard); rc != 0 {
			b.Fatalf("record: exit %d", rc)
		}
	}
	b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}
