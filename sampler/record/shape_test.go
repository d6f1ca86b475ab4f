package record

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"
)

// bigLine is a snapshot line whose key list has n copies of elem.
func bigLine(key, elem string, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"time":"2026-05-01T12:00:00Z","` + key + `":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(elem)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// TestCraftedLineIsRefusedCheaply: a line crafted to decode into far more
// memory than its size (1 MB of empty GPU objects took 1.27 GB) is refused
// with a clear line, using a few MB, for every list a snapshot has.
func TestCraftedLineIsRefusedCheaply(t *testing.T) {
	hdr := `{"gpuscope_recording":1,"host":"h","interval_ms":1000}` + "\n"
	for _, c := range []struct{ name, key, elem string }{
		{"empty GPUs", "gpus", "{}"},
		{"null GPUs", "gpus", "null"},
		{"numbers as GPUs", "gpus", "0"},
		{"processes", "problems", `""`},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := bigLine(c.key, c.elem, 400_000) // 0.8-1.2 MB
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r, err := NewReader(bytes.NewReader(append([]byte(hdr), line...)), "crafted.jsonl", Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Next()
			r.Close()
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), "crafted.jsonl: no line is a readable snapshot") || !strings.Contains(err.Error(), "line 2: skipped") || !strings.Contains(err.Error(), "more than") {
				t.Fatalf("want a clear refusal, got %v", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Errorf("refusing a %d KB line allocated %d MB", len(line)>>10, alloc>>20)
			}
		})
	}
}

// TestBigRealLineIsRead: a real snapshot with thousands of processes is
// longer than shapeCheckBytes and must still be read.
func TestBigRealLineIsRead(t *testing.T) {
	s := realisticSnapshot(1)
	p := s.GPUs[0].Procs[0]
	for i := range 5000 {
		p.PID = 100000 + i
		s.GPUs[0].Procs = append(s.GPUs[0].Procs, p)
	}
	line, _ := json.Marshal(Entry{Snapshot: s})
	if len(line) < shapeCheckBytes {
		t.Fatalf("line of %d bytes does not exercise the check", len(line))
	}
	hdr, _ := json.Marshal(HeaderFor(s, time.Second))
	r, err := NewReader(bytes.NewReader([]byte(string(hdr)+"\n"+string(line)+"\n")), "big.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	e, err := r.Next()
	if err != nil || len(e.GPUs[0].Procs) != len(s.GPUs[0].Procs) {
		t.Fatalf("err %v", err)
	}
}
