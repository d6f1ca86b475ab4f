package record

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func FuzzReader(f *testing.F) {
	hdr := `{"gpuscope_recording":1,"host":"h","gpus":[{"index":0}],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}` + "\n"
	snap, _ := json.Marshal(Entry{Snapshot: realisticSnapshot(1)})
	f.Add([]byte(hdr + string(snap) + "\n"))
	f.Add([]byte(hdr + `{"gpus":[{"index":0,"util":null,"clock_events":["idle"]}]}` + "\n{"))
	f.Add([]byte(""))
	f.Add([]byte(`{"gpuscope_recording":9}`))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(hdr + string(snap) + "\n"))
	zw.Flush()
	f.Add(gz.Bytes())
	f.Add(elidedRecording(f)) // same_gpus / same_procs lists
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lenient := range []bool{false, true} {
			r, err := NewReader(bytes.NewReader(data), "fuzz", Options{Lenient: lenient})
			if err != nil {
				continue
			}
			for range 10000 {
				if _, err := r.Next(); err != nil {
					break
				}
			}
			_ = r.Warnings()
			r.Close()
		}
	})
}

// elidedRecording is three entries as the Writer writes them: the later
// ones list the GPUs and processes whose static fields they leave out.
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
		if err := w.Write(Entry{Snapshot: s}); err != nil {
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
