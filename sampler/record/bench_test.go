package record

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
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
// behind BenchmarkRead, quick enough to profile.
func BenchmarkDecodeEntry(b *testing.B) {
	line, err := json.Marshal(Entry{Snapshot: realisticSnapshot(3)})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		e := wireEntry{Entry: Entry{Snapshot: sampler.Snapshot{GPUs: make([]sampler.GPU, 0, 8)}}} // as the pipeline does
		if err := decodeEntry(line, &e, nil); err != nil {
			b.Fatal(err)
		}
	}
}
