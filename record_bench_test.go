package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/benchtest"
	"github.com/gpuscope/gpuscope/sampler/record"
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

// BenchmarkReportFooter is `gpuscope report` of a recording read from its
// footer and with --full (every line), in this process: an hour of the
// mixed demo, or GPUSCOPE_BENCH_RECORDING (a day recorded by this build,
// docs/benchmarks.md "Recordings: the report read from the footer").
func BenchmarkReportFooter(b *testing.B) {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		path = filepath.Join(b.TempDir(), "hour.jsonl.gz")
		if rc := run([]string{"record", "-o", path, "--demo=mixed", "--duration", "1h"}, io.Discard, io.Discard); rc != 0 {
			b.Fatalf("record: exit %d", rc)
		}
	}
	if _, err := record.ReadFooter(path); err != nil {
		b.Fatalf("%s: %v", path, err)
	}
	for _, mode := range []string{"footer", "full"} {
		b.Run(mode, func(b *testing.B) {
			args := []string{"report", path}
			if mode == "full" {
				args = append(args, "--full")
			}
			cpu0 := benchtest.ProcessCPU(b)
			for b.Loop() {
				if rc := run(args, io.Discard, io.Discard); rc != 0 {
					b.Fatalf("report: exit %d", rc)
				}
			}
			b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
