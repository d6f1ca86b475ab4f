package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func writeRecording(t testing.TB, path string, n int) []Entry {
	t.Helper()
	return writeRecordingKeep(t, path, n, true)
}

// writeRecordingKeep writes n entries, returning them only if keep (a
// benchmark's 86,400 entries would dominate its memory).
func writeRecordingKeep(t testing.TB, path string, n int, keep bool) []Entry {
	t.Helper()
	w, err := Create(path, HeaderFor(realisticSnapshot(0), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var want []Entry
	for i := range n {
		e := Entry{Snapshot: realisticSnapshot(i)}
		if i%2 == 1 {
			e.Findings = json.RawMessage(`[{"rule":"input-bound","severity":"warning","gpu":0}]`)
		}
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
		if keep {
			want = append(want, e)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return want
}

func readAll(t testing.TB, r *Reader) []Entry {
	t.Helper()
	var got []Entry
	for {
		e, err := r.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, name := range []string{"rec.jsonl", "rec.jsonl.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			want := writeRecording(t, path, 5)
			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			h := r.Header()
			if h.Version != Version || h.Host != "gpu-node-17" || len(h.GPUs) != 8 || h.Interval() != time.Second || !h.Started.Equal(t0) {
				t.Errorf("header = %+v", h)
			}
			got := readAll(t, r)
			if len(got) != len(want) {
				t.Fatalf("read %d entries, want %d", len(got), len(want))
			}
			for i := range want {
				// time.Time carries a monotonic/location detail; compare it apart.
				if !got[i].Time.Equal(want[i].Time) {
					t.Errorf("entry %d time %v, want %v", i, got[i].Time, want[i].Time)
				}
				got[i].Time = want[i].Time
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("entry %d differs after round trip:\n got %+v\nwant %+v", i, got[i].GPUs[0], want[i].GPUs[0])
				}
			}
			if w := r.Warnings(); len(w) != 0 {
				t.Errorf("warnings on a clean file: %v", w)
			}
		})
	}
}

func TestEntryFlattensSnapshot(t *testing.T) {
	b, err := json.Marshal(Entry{Snapshot: realisticSnapshot(0), Findings: json.RawMessage(`[]`)})
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"time", "seq", "node", "gpus", "host", "findings"} {
		if _, ok := top[k]; !ok {
			t.Errorf("key %q missing at top level: %s", k, b[:200])
		}
	}
	if _, ok := top["Snapshot"]; ok {
		t.Error("snapshot nested under \"Snapshot\" instead of flattened")
	}
}

func TestUnknownFieldsIgnored(t *testing.T) {
	in := `{"gpuscope_recording":1,"host":"h","gpus":[],"interval_ms":500,"source":"nvml","started":"2026-05-01T12:00:00Z","future":true}
{"time":"2026-05-01T12:00:01Z","seq":1,"node":{"hostname":"h","source":"nvml"},"gpus":[{"index":0,"util":42,"warp_stalls":{"a":1}}],"brand_new":[1,2]}
`
	r, err := NewReader(strings.NewReader(in), "x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, r)
	if len(got) != 1 || got[0].GPUs[0].Util.V != 42 || !got[0].GPUs[0].Util.OK {
		t.Fatalf("got %+v", got)
	}
	if r.Header().IntervalMS != 500 {
		t.Errorf("interval %d", r.Header().IntervalMS)
	}
}

// TestTornFile cuts a recording at many byte offsets, as a killed recorder
// would leave it: the reader must return the whole lines before the cut and
// no error, plain and gzip alike.
func TestTornFile(t *testing.T) {
	for _, name := range []string{"rec.jsonl", "rec.jsonl.gz"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			writeRecording(t, path, 6)
			full, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			step := 311 // a prime, so cuts land at varied offsets in each line
			if strings.HasSuffix(name, ".gz") {
				step = 97
			}
			prev := 0
			for cut := step; cut < len(full); cut += step {
				r, err := NewReader(bytes.NewReader(full[:cut]), name, Options{})
				if err != nil {
					// Only a cut inside the header line (or gzip header) may fail.
					if cut > len(full)/6 {
						t.Fatalf("cut at %d of %d: %v", cut, len(full), err)
					}
					continue
				}
				n := 0
				for {
					_, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("cut at %d: %v", cut, err)
					}
					n++
				}
				if n < prev {
					t.Fatalf("cut at %d read %d entries, fewer than a shorter cut (%d)", cut, n, prev)
				}
				prev = n
			}
			if prev < 5 {
				t.Errorf("longest cut read only %d entries of 6", prev)
			}
		})
	}
}

func TestTornLastLineWarning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	writeRecording(t, path, 3)
	full, _ := os.ReadFile(path)
	r, err := NewReader(bytes.NewReader(full[:len(full)-40]), "r", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); len(got) != 2 {
		t.Fatalf("read %d, want 2", len(got))
	}
	w := r.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "line 4: torn last line") || !strings.Contains(w[0], "read 2 snapshots") {
		t.Errorf("warnings = %q", w)
	}
}

func TestCorruptMiddleLine(t *testing.T) {
	in := `{"gpuscope_recording":1,"host":"h","gpus":[],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}
{"seq":1,"node":{"source":"nvml"},"gpus":[]}
{"seq":2,"node":{"sou
{"seq":3,"node":{"source":"nvml"},"gpus":[]}
`
	r, _ := NewReader(strings.NewReader(in), "rec", Options{})
	got := readAll(t, r)
	if len(got) != 2 || got[1].Seq != 3 {
		t.Fatalf("read %d entries: %+v", len(got), got)
	}
	w := strings.Join(r.Warnings(), "\n")
	if !strings.Contains(w, "line 3: skipped, damaged (not a snapshot:") || !strings.Contains(w, "1 damaged line skipped") {
		t.Errorf("warnings = %s", w)
	}
}

// Only a file without one readable line after its header is an error.
func TestNoReadableLine(t *testing.T) {
	in := `{"gpuscope_recording":1,"host":"h","gpus":[],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}
{"seq":2,"node":{"sou
garbage
`
	r, _ := NewReader(strings.NewReader(in), "rec", Options{})
	_, err := r.Next()
	if err == nil || !strings.Contains(err.Error(), "rec: no line is a readable snapshot (2 damaged lines skipped; line 2: skipped") {
		t.Fatalf("err = %v", err)
	}
}

func TestNotARecording(t *testing.T) {
	cases := map[string]struct{ in, want string }{
		"csv":     {"timestamp, index, utilization.gpu [%]\n2024/05/01 12:00:00.000, 0, 97 %\n", `x.csv: not a gpuscope recording (first line is not {"gpuscope_recording":1,...}); for nvidia-smi or dcgmi logs use report/replay`},
		"json":    {`{"hello":1}` + "\n", "not a gpuscope recording"},
		"empty":   {"", "x.csv: empty file"},
		"blank":   {"\n\n  \n", "empty file"},
		"version": {`{"gpuscope_recording":4,"host":"h"}` + "\n", "recording format version 4 is newer"},
		"zero":    {`{"gpuscope_recording":0}` + "\n", "not a gpuscope recording"},
	}
	for name, c := range cases {
		_, err := NewReader(strings.NewReader(c.in), "x.csv", Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestLongLine goes past bufio.Scanner's 64 KiB limit and the reader's buffer.
func TestLongLine(t *testing.T) {
	s := realisticSnapshot(0)
	s.Problems = []string{strings.Repeat("x", 700<<10)}
	path := filepath.Join(t.TempDir(), "long.jsonl")
	w, err := Create(path, Header{Host: "h"})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := w.Write(Entry{Snapshot: s}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := readAll(t, r)
	if len(got) != 3 || len(got[2].Problems[0]) != 700<<10 {
		t.Fatalf("read %d entries", len(got))
	}
}

func TestGzipDetectedByContentNotName(t *testing.T) {
	dir := t.TempDir()
	gz := filepath.Join(dir, "a.jsonl.gz")
	writeRecording(t, gz, 2)
	renamed := filepath.Join(dir, "a.jsonl")
	if err := os.Rename(gz, renamed); err != nil {
		t.Fatal(err)
	}
	r, err := Open(renamed)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := readAll(t, r); len(got) != 2 {
		t.Fatalf("read %d", len(got))
	}
}

func TestTornHeaderSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cut.jsonl")
	if err := os.WriteFile(path, []byte(`{"gpuscope_recording":1,"host":"gpu-no`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "header is cut off") {
		t.Fatalf("err = %v", err)
	}
}

func TestConcatenatedRecordingsSaySo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	writeRecording(t, path, 2)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cat := filepath.Join(t.TempDir(), "cat.jsonl")
	if err := os.WriteFile(cat, append(b, b...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(cat)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for {
		if _, err = r.Next(); err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), "line 4: not a snapshot: it is a second recording header") {
		t.Fatalf("err = %v", err)
	}
}
