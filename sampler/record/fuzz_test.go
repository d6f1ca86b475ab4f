package record

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzReader feeds the reader plain (uncompressed) recordings. Gzip stays
// out of the hot loop: a gzip input spends the fuzzer's time in
// compress/flate (fuzzed by Go itself) and its mutations almost never
// decompress, which kept this target near 0 execs/s. Seeds are one GPU
// each: every new input derived from a seed is minimized, and a 20 KB seed
// stalled the fuzzer for seconds. The gzip path has its own tests.
func FuzzReader(f *testing.F) {
	hdr := `{"gpuscope_recording":1,"host":"h","gpus":[{"index":0}],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}` + "\n"
	one := realisticSnapshot(1)
	one.GPUs = one.GPUs[:1]
	snap, _ := json.Marshal(Entry{Snapshot: one})
	f.Add([]byte(hdr + string(snap) + "\n"))
	f.Add([]byte(hdr + `{"gpus":[{"index":0,"util":null,"clock_events":["idle"]}]}` + "\n{"))
	f.Add([]byte(""))
	f.Add([]byte(`{"gpuscope_recording":9}`))
	f.Add(elidedRecording(f)) // same_gpus / same_procs / same_findings lists
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
			return // gzip: see above
		}
		// A small buffer: cheaper, and long lines take the path that
		// assembles them from fragments.
		r, err := NewReader(bytes.NewReader(data), "fuzz", Options{bufBytes: 256})
		if err != nil {
			return
		}
		for range 10000 {
			if _, err := r.Next(); err != nil {
				break
			}
		}
		_ = r.Warnings()
		r.Close()
	})
}

// elidedRecording is three entries as the Writer writes them: the later
// ones list the GPUs and processes whose static fields they leave out, and
// their findings.
func elidedRecording(f *testing.F) []byte {
	path := filepath.Join(f.TempDir(), "elided.jsonl")
	w, err := Create(path, HeaderFor(realisticSnapshot(0), time.Second))
	if err != nil {
		f.Fatal(err)
	}
	for i := range 3 {
		s := staticsSnapshot(i, trainer, worker)
		// One GPU keeps the seed small: the fuzzer minimizes every new
		// input derived from it, and a 20 KB seed stalled it for seconds.
		s.GPUs = s.GPUs[:1]
		// Findings seen again and unchanged: seen_findings, same_findings.
		ls, _ := json.Marshal(s.Time)
		fs := json.RawMessage(`[{"rule":"a","gpu":0,"last_seen":` + string(ls) + `},{"rule":"b","i18n":{"args":{"x":"]"}}}]`)
		if err := w.Write(Entry{Snapshot: s, Findings: fs}); err != nil {
			f.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// FuzzCheckShape: the scan that guards the decoder against crafted long
// lines (shape.go) never panics, and whatever it accepts decodes within
// its bounds. The fuzzed fragment is repeated into a list long enough to be
// scanned: the large inputs a seed corpus cannot hold.
func FuzzCheckShape(f *testing.F) {
	for _, s := range []string{"{}", "null", "0", `{"procs":[{},{}]}`, `"a\\"`, `[[],[]]`, `{"gpus":[`} {
		f.Add([]byte(s), uint16(2000))
	}
	f.Fuzz(func(t *testing.T, frag []byte, n uint16) {
		// Lines of 64-140 KB: past shapeCheckBytes and past 1024 entries,
		// small enough to run hundreds of times a second.
		if len(frag) == 0 || len(frag) > 32 || n > 4096 {
			return
		}
		var b bytes.Buffer
		b.WriteString(`{"gpus":[`)
		for i := 0; b.Len() < shapeCheckBytes || i < int(n); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(frag)
		}
		b.WriteString("]}")
		if err := checkShape(b.Bytes()); err != nil {
			return
		}
		var l wireEntry
		if json.Unmarshal(b.Bytes(), &l) == nil && len(l.GPUs) > maxGPUsPerLine {
			t.Fatalf("accepted %d GPUs", len(l.GPUs))
		}
	})
}
