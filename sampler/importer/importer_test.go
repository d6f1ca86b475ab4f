package importer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

var fixedStart = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// load reads a testdata log through Open, as replay and report do.
func load(t *testing.T, name string) ([]sampler.Snapshot, []string, Format) {
	t.Helper()
	s, f, err := OpenWith(filepath.Join("testdata", name), Options{Start: fixedStart})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer s.Close()
	var out []sampler.Snapshot
	for {
		snap, err := s.Next()
		if err == io.EOF {
			return out, s.Warnings(), f
		}
		if err != nil {
			t.Fatalf("%s: snapshot %d: %v", name, len(out), err)
		}
		out = append(out, snap)
	}
}

func wantMetric(t *testing.T, what string, got sampler.Metric, want float64) {
	t.Helper()
	if !got.OK || got.V < want-1e-6*max(1, want) || got.V > want+1e-6*max(1, want) {
		t.Errorf("%s = %+v, want %v", what, got, want)
	}
}

func wantNA(t *testing.T, what string, got sampler.Metric) {
	t.Helper()
	if got.OK {
		t.Errorf("%s = %v, want n/a", what, got.V)
	}
}

func gpuCounts(snaps []sampler.Snapshot) []int {
	var n []int
	for _, s := range snaps {
		n = append(n, len(s.GPUs))
	}
	return n
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func joined(w []string) string { return strings.Join(w, "\n") }

func TestDetect(t *testing.T) {
	cases := []struct {
		file string
		want Format
	}{
		{"smi_query_h100.csv", SMICSV},
		{"smi_query_t4_nounits.csv", SMICSV},
		{"smi_query_noheader.csv", SMICSV},
		{"dmon_a100.txt", SMIDmon},
		{"dmon_dt_h100.txt", SMIDmon},
		{"dmon_csv.txt", SMIDmon},
		{"pmon_dt.txt", SMIPmon},
		{"pmon_plain.txt", SMIPmon},
		{"dcgmi_dmon.txt", DCGMIDmon},
		{"dcgmi_numeric.txt", DCGMIDmon},
		{"smi_q_h100.xml", SMIXML},
		{"smi_q_a100_old_loop.xml", SMIXML},
	}
	for _, c := range cases {
		head, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := Detect(head); got != c.want {
			t.Errorf("Detect(%s) = %q, want %q", c.file, got, c.want)
		}
	}
	inline := map[string]Format{
		`{"gpuscope_recording":1,"host":"x"}`:                 Gpuscope,
		`{"hello":1}`:                                         Unknown,
		"\xef\xbb\xbftimestamp, index, utilization.gpu [%]\n": SMICSV,
		"hello world\n":                                       Unknown,
		"a,b,c\n1,2,3\n":                                      Unknown,
		"# some comment\n":                                    Unknown,
		// A Markdown heading that names a GPU is not a dmon header (an issue template's first line).
		"### NVIDIA Open GPU Kernel Modules Version\n\n595.71.05 (Ubuntu packages: a 1, b 1)\n": Unknown,
		"":                                 Unknown,
		"<html><body>":                     Unknown,
		"\n\n   <nvidia_smi_log>":          SMIXML,
		"# Entity  POWER\nID\nGPU 0  40\n": DCGMIDmon,
		"0, 97, 16384, 40960\n":            SMICSV,
		"0, P0, 16384, 40960\n":            Unknown,
	}
	for in, want := range inline {
		if got := Detect([]byte(in)); got != want {
			t.Errorf("Detect(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnknownAndEmpty(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ body, want string }{
		"garbage.bin": {"\x00\x01\x02 random bytes\n", "not a log gpuscope can read; recognised: gpuscope recording"},
		"empty.log":   {"", "empty file"},
		"blank.log":   {"\n \n", "empty file"},
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(c.body), 0o644)
		_, f, err := Open(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || f != Unknown {
			t.Errorf("%s: format %q, err %v; want %q", name, f, err, c.want)
		}
	}
	if _, _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// TestTornLastLine cuts each table log inside its last row, as a killed
// logger leaves it: the whole rows before are read, with a warning.
func TestTornLastLine(t *testing.T) {
	for _, name := range []string{"dmon_a100.txt", "dmon_csv.txt", "pmon_dt.txt", "dcgmi_dmon.txt", "smi_query_t4_nounits.csv"} {
		full, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		whole, _, err := readString(string(full))
		if err != nil {
			t.Fatal(err)
		}
		cut, warns, err := readString(string(full[:len(full)-6]))
		if err != nil {
			t.Errorf("%s cut: %v", name, err)
			continue
		}
		if !strings.Contains(joined(warns), "torn last line") {
			t.Errorf("%s cut: warnings %v", name, warns)
		}
		gotRows, wantRows := 0, 0
		for _, s := range cut {
			gotRows += len(s.GPUs)
		}
		for _, s := range whole {
			wantRows += len(s.GPUs)
		}
		if len(cut) == 0 || len(cut) > len(whole) || gotRows > wantRows || gotRows < wantRows-1 {
			t.Errorf("%s cut: %d snaps (%d GPU rows), whole file %d (%d)", name, len(cut), gotRows, len(whole), wantRows)
		}
	}
}

// TestRecordingAndGzip reads a gpuscope recording and a gzipped log through Open.
func TestRecordingAndGzip(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "r.jsonl")
	body := `{"gpuscope_recording":1,"host":"n","gpus":[{"index":0}],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}
{"time":"2026-05-01T12:00:01Z","seq":1,"node":{"hostname":"n","source":"nvml"},"gpus":[{"index":0,"util":55}],"findings":[]}
`
	os.WriteFile(rec, []byte(body), 0o644)
	s, f, err := Open(rec)
	if err != nil || f != Gpuscope {
		t.Fatalf("%q %v", f, err)
	}
	snap, err := s.Next()
	if err != nil || snap.GPUs[0].Util.V != 55 || snap.Node.Hostname != "n" {
		t.Fatalf("%+v %v", snap, err)
	}
	s.Close()

	raw, _ := os.ReadFile(filepath.Join("testdata", "dcgmi_dmon.txt"))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	p := filepath.Join(dir, "dcgmi.log.gz")
	os.WriteFile(p, gz.Bytes(), 0o644)
	if Detect(gz.Bytes()) != DCGMIDmon {
		t.Errorf("Detect through gzip failed")
	}
	s, f, err = Open(p)
	if err != nil || f != DCGMIDmon {
		t.Fatalf("%q %v", f, err)
	}
	defer s.Close()
	n := 0
	for {
		if _, err := s.Next(); err != nil {
			break
		}
		n++
	}
	if n != 2 {
		t.Errorf("gzipped dcgmi log: %d snaps", n)
	}
}

func TestOpenDirectoryIsClear(t *testing.T) {
	_, _, err := Open(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("err = %v", err)
	}
}
