package record

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/benchtest"
)

// BenchmarkRead reads a 24-hour, 8-GPU, 1 s recording (86,400 lines), the
// size replay must handle (docs/benchmarks.md, "Recordings at scale");
// -benchtime=1x is enough for a number.
func BenchmarkRead(b *testing.B) {
	const lines = 86400
	path := filepath.Join(b.TempDir(), "day.jsonl")
	writeRecordingKeep(b, path, lines, false)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		r.Close()
		if n != lines {
			b.Fatalf("read %d lines", n)
		}
	}
}

// BenchmarkDecodeEntry decodes one realistic 8-GPU line: the per-line cost
// behind BenchmarkRead, quick enough to profile. "line" is decodeEntry (the
// fast reader, fastentry.go), "general" the general decoder it falls back
// to, side by side in one run on a shared machine.
func BenchmarkDecodeEntry(b *testing.B) {
	line, err := json.Marshal(Entry{Snapshot: realisticSnapshot(3)})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		decode func([]byte, *wireEntry) error
	}{{"line", decodeEntry}, {"general", func(t []byte, l *wireEntry) error { return jsonv1.Unmarshal(t, l) }}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			cpu0 := benchtest.ProcessCPU(b)
			for b.Loop() {
				e := wireEntry{Entry: Entry{Snapshot: sampler.Snapshot{GPUs: make([]sampler.GPU, 0, 8)}}} // as the pipeline does
				if err := c.decode(line, &e); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkReadFindings reads an hour of 8 GPUs whose every line has six
// findings in force (~5 KB, as a day of the mixed demo), each seen again
// at the line's time and one's evidence changing every 10 s: "once" as
// the Writer writes them (findings.go), "every-line" as version 2 wrote
// them; "on-demand" written once and read as report reads them, the list
// left unbuilt (Options.FindingsOnDemand). What the findings cost a reader
// (docs/benchmarks.md).
func BenchmarkReadFindings(b *testing.B) {
	const lines = 3600
	for _, c := range []struct {
		name            string
		every, onDemand bool
	}{{"once", false, false}, {"every-line", true, false}, {"on-demand", false, true}} {
		every := c.every
		b.Run(c.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "hour.jsonl.gz")
			w, err := Create(path, HeaderFor(realisticSnapshot(0), time.Second))
			if err != nil {
				b.Fatal(err)
			}
			w.everyFinding = every
			w.DeferFlush()
			for i := range lines {
				s := realisticSnapshot(i)
				var fs []string
				for k := range 6 {
					fs = append(fs, benchFinding(k, i/10*(k/5), s.Time))
				}
				if err := w.Write(Entry{Snapshot: s, Findings: json.RawMessage("[" + strings.Join(fs, ",") + "]")}); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := benchtest.ProcessCPU(b)
			for b.Loop() {
				r, err := OpenOptions(path, Options{FindingsOnDemand: c.onDemand})
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for ; ; n++ {
					if _, err := r.Next(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
				r.Close()
				if n != lines {
					b.Fatalf("read %d lines", n)
				}
			}
			// CPU time of every goroutine: the decoding runs on all cores,
			// and on a shared machine wall time is mostly the neighbours'.
			b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// benchFinding is a recorded finding the size of the demo's (~880 B).
func benchFinding(k, ev int, seen time.Time) string {
	ls, _ := json.Marshal(seen)
	return fmt.Sprintf(`{"rule":"rule_%d","severity":"warning","gpu":%d,"pid":%d,"title":"GPU %d finding title",`+
		`"evidence":"hw_thermal active in %d of 121 samples; temp max 91 °C (slowdown 90 °C); SM clock 1020 MHz of 1980",`+
		`"hint":"Hardware slowdown cuts clocks by half or more: check cooling, power supply and power-brake signals now (nvidia-smi -q -d PERFORMANCE; dmesg) ([gpu-idle-handbook] §6.2)",`+
		`"fix_id":"thermal_hw","since":"2026-05-01T12:00:00Z","last_seen":%s,"i18n":{"title":{"id":"thermal.title_hw","args":{"GPU":"%d"}},`+
		`"evidence":[{"id":"thermal.hw","args":{"N":"%d","Reasons":"hw_thermal","Samples":"121"}},{"id":"thermal.temp","args":{"Temp":"91"}},`+
		`{"id":"thermal.slowdown","args":{"Temp":"90"},"join":1},{"id":"thermal.clock","args":{"Clock":"1020"}},{"id":"thermal.clock_max","args":{"Max":"1980"},"join":1}]}}`,
		k, k, 1000+k, k, ev, ls, k, ev)
}

// BenchmarkDecodeDayLines decodes the first 10,000 lines of
// GPUSCOPE_BENCH_RECORDING (a day of the mixed demo: elided statics,
// findings) on one goroutine, as a pipeline worker does: cpu-ns/op is one
// line's decoding, the workers' share of `report` (docs/benchmarks.md,
// "Recordings: the scanner's own cost").
func BenchmarkDecodeDayLines(b *testing.B) {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		b.Skip("GPUSCOPE_BENCH_RECORDING not set")
	}
	r, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for len(lines) < 10000 {
		line, _, err := r.lines.next()
		if err != nil {
			break
		}
		lines = append(lines, append([]byte(nil), line...))
	}
	r.Close()
	// lean: as a report reads once the findings come from the recording
	// (Reader.Lean).
	for _, lean := range []bool{false, true} {
		b.Run(map[bool]string{false: "full", true: "lean"}[lean], func(b *testing.B) {
			b.ReportAllocs()
			s := scanner{lean: lean}
			cpu0 := benchtest.ProcessCPU(b)
			i := 0
			for b.Loop() {
				l := wireEntry{Entry: Entry{Snapshot: sampler.Snapshot{GPUs: make([]sampler.GPU, 0, 8)}}}
				if err := decodeLine(&s, lines[i%len(lines)], &l); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkInflateDay only decompresses GPUSCOPE_BENCH_RECORDING as a
// Reader does (klauspost's gzip, the member resync, 256 KiB buffers):
// cpu-ns/op is the part of `report` no change to the decoding can remove,
// beside `gzip -dc` (docs/benchmarks.md, "Recordings: the scanner's own
// cost").
func BenchmarkInflateDay(b *testing.B) {
	path := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if path == "" {
		b.Skip("GPUSCOPE_BENCH_RECORDING not set")
	}
	cpu0 := benchtest.ProcessCPU(b)
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		br, err := decompressedResync(bufio.NewReaderSize(f, readBufBytes), path, func(error) {})
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, br)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(n)
	}
	b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkEncodeLine is the writer's own work per line of an 8-GPU node
// (the statics and the slow tier left out, the line encoded), gzip aside:
// 60 lines of the realistic fixture in turn, the statics mostly the same.
func BenchmarkEncodeLine(b *testing.B) {
	var snaps []sampler.Snapshot
	for i := range 60 {
		snaps = append(snaps, realisticSnapshot(i))
	}
	var w Writer
	b.ReportAllocs()
	cpu0 := benchtest.ProcessCPU(b)
	i := 0
	for b.Loop() {
		l := w.stat.elide(Entry{Snapshot: snaps[i%len(snaps)]})
		w.slow.elide(&l)
		if _, err := w.enc.entry(&l); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}
