package summary

import (
	"encoding/json"
	"io"
	"os"
	"runtime/debug"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose/summary/summarytest"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/benchtest"
	"github.com/gpuscope/gpuscope/sampler/importer"
)

// The budget (docs/benchmarks.md): a 24-hour recording of 8 GPUs at 1 s
// reports in under 10 s with under 200 MB. These benchmarks measure Build
// alone (no file, no JSON), to compare with BenchmarkDecodeEntry8GPUs:
// Build's share must be far below decoding's.

const day = 86400

// benchSource generates a day of 8-GPU snapshots. With reuse, it hands out
// one GPU slice over and over (only valid for recorded findings, where
// Build keeps no snapshot), so the figure is Build's own cost.
type benchSource struct {
	i     int
	reuse bool
	buf   []sampler.GPU
	raw   json.RawMessage
}

func (s *benchSource) Next() (sampler.Snapshot, json.RawMessage, error) {
	if s.i >= day {
		return sampler.Snapshot{}, nil, io.EOF
	}
	i := s.i
	s.i++
	gpus := s.buf
	if !s.reuse || gpus == nil {
		gpus = make([]sampler.GPU, 8)
		s.buf = gpus
	}
	for g := range gpus {
		gpus[g] = benchGPU(g, i)
	}
	snap := sampler.Snapshot{Time: summarytest.Start.Add(time.Duration(i) * time.Second), Seq: uint64(i), GPUs: gpus,
		Node: sampler.Node{Hostname: "bench", Source: "bench"}}
	return snap, s.raw, nil
}

func benchGPU(g, i int) sampler.GPU {
	u := float64((i*7 + g*13) % 101)
	ev := sampler.ClockEvents{OK: true}
	if i%10 == 0 {
		ev.Mask = sampler.ClockSwPowerCap
	}
	return sampler.GPU{Index: g, Name: "NVIDIA H200", Util: sampler.Some(u), SMActive: sampler.Some(u * 0.7),
		TensorActive: sampler.Some(u * 0.3), MemUsed: sampler.Some(80 << 30), MemTotal: sampler.Some(141 << 30),
		Power: sampler.Some(300 + u*3), PowerLimit: sampler.Some(700), Temp: sampler.Some(60), ClockEvents: ev,
		SMClock: sampler.Some(1980), SMClockMax: sampler.Some(1980)}
}

// BenchmarkBuild24h: one op is a whole day. "recorded" is a recording's
// path (findings stored, as "null"); "recomputed" runs the diagnosis every
// 10 s of log time, as for an imported log.
func BenchmarkBuild24h(b *testing.B) {
	for _, c := range []struct {
		name string
		src  func() *benchSource
	}{
		{"recorded", func() *benchSource { return &benchSource{reuse: true, raw: json.RawMessage("null")} }},
		{"recomputed", func() *benchSource { return &benchSource{} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(c.src(), Options{File: "bench"}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/day, "ns/snapshot")
		})
	}
}

// BenchmarkDecodeEntry8GPUs is the JSON decoding a recording needs per
// snapshot, for scale: multiply by 86,400 for a day.
func BenchmarkDecodeEntry8GPUs(b *testing.B) {
	src := &benchSource{}
	s, _, _ := src.Next()
	line, err := json.Marshal(struct {
		sampler.Snapshot
		Findings json.RawMessage `json:"findings"`
	}{s, json.RawMessage("null")})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var e struct {
			sampler.Snapshot
			Findings json.RawMessage `json:"findings"`
		}
		if err := json.Unmarshal(line, &e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReportRecording is `gpuscope report FILE` without the rendering,
// on a real recording with stored findings: GPUSCOPE_BENCH_RECORDING names
// it (a day of the demo: gpuscope record -o day.jsonl.gz --demo --duration
// 24h); skipped without. docs/benchmarks.md compares it with gzip -dc of
// the same file.
func BenchmarkReportRecording(b *testing.B) {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		b.Skip("GPUSCOPE_BENCH_RECORDING not set")
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := buildFile(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(r.GPUs) != 8 {
			b.Fatalf("report of %d GPUs, want the demo's 8", len(r.GPUs))
		}
	}
}

// BenchmarkCompareRecording reports GPUSCOPE_BENCH_RECORDING once ("one")
// and as both sides of a compare ("pair", summary.BuildPair), with the
// collector paced as report and compare pace it (ui/cli/readgc.go): the
// figure is cpu-ns/op, pair's against one's (compare ≤ one report, issue
// "Cost"; docs/benchmarks.md, "Recordings: a line read without reflection").
func BenchmarkCompareRecording(b *testing.B) {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		b.Skip("GPUSCOPE_BENCH_RECORDING not set")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(800))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(120 << 20))
	for _, pair := range []bool{false, true} {
		b.Run(map[bool]string{false: "one", true: "pair"}[pair], func(b *testing.B) {
			cpu0 := benchtest.ProcessCPU(b)
			for b.Loop() {
				if !pair {
					if _, err := buildFile(path, Options{}); err != nil {
						b.Fatal(err)
					}
					continue
				}
				fb, fa, err := importer.OpenPair(path, path)
				if err != nil {
					b.Fatal(err)
				}
				_, _, err = BuildPair(fb, fa, Options{})
				fb.Close()
				fa.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
