package record

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/benchtest"
)

// dayLikeRecording is GPUSCOPE_BENCH_RECORDING (a day of the mixed demo,
// 86,400 lines) or, without it, 3,000 realistic 8-GPU lines written by the
// Writer, gzip in members of linesPerMember as a day is.
func dayLikeRecording(b *testing.B) string {
	if path := os.Getenv("GPUSCOPE_BENCH_RECORDING"); path != "" {
		return path
	}
	path := filepath.Join(b.TempDir(), "r.jsonl.gz")
	w, err := Create(path, HeaderFor(realisticSnapshot(0), time.Second))
	if err != nil {
		b.Fatal(err)
	}
	w.DeferFlush()
	for i := range 3000 {
		if err := w.Write(Entry{Snapshot: realisticSnapshot(i)}); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkReadDay reads a day-like gzip recording through a Reader, entry
// by entry, with the members inflated on every core ("members") and on the
// reading goroutine ("serial"), side by side: cpu-ns/op is the CPU of the
// whole read, ns/op its wall (docs/benchmarks.md, "Recordings inflated on
// every core").
func BenchmarkReadDay(b *testing.B) {
	path := dayLikeRecording(b)
	for _, c := range []struct {
		name string
		o    Options
		lean bool // as a report reads with the recording's findings
	}{{"members", Options{}, false}, {"serial", Options{serialInflate: true}, false}, {"lean", Options{}, true}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := benchtest.ProcessCPU(b)
			for b.Loop() {
				r, err := OpenOptions(path, c.o)
				if err != nil {
					b.Fatal(err)
				}
				if c.lean {
					r.Lean()
				}
				for {
					if _, err := r.Next(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
				r.Close()
			}
			b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkInflateMembers only inflates, as BenchmarkInflateDay, with the
// members on every core.
func BenchmarkInflateMembers(b *testing.B) {
	path := dayLikeRecording(b)
	cpu0 := benchtest.ProcessCPU(b)
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		m := newMembersReader(bufio.NewReaderSize(f, readBufBytes), func(error) {}, 0)
		n, err := io.Copy(io.Discard, m)
		m.stop()
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(n)
	}
	b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}
