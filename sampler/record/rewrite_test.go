package record

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRewriteReadsTheSame copies a real recording (GPUSCOPE_BENCH_RECORDING,
// e.g. a day of `record --demo`, any version) through this build's Writer
// and reads both back: every entry, findings included, must read the same.
// The copy is left at GPUSCOPE_REWRITE_TO when set, to report both files
// (docs/benchmarks.md). Skipped without a recording: it reads a day twice.
func TestRewriteReadsTheSame(t *testing.T) {
	in := os.Getenv("GPUSCOPE_BENCH_RECORDING")
	if in == "" {
		t.Skip("GPUSCOPE_BENCH_RECORDING not set")
	}
	out := os.Getenv("GPUSCOPE_REWRITE_TO")
	if out == "" {
		out = filepath.Join(t.TempDir(), "copy.jsonl.gz")
	}
	copyRecording(t, in, out)
	src, err := Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	back, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	for i := 0; ; i++ {
		want, err := src.Next()
		got, gerr := back.Next()
		if err == io.EOF && gerr == io.EOF {
			return
		}
		if err != nil || gerr != nil {
			t.Fatalf("entry %d: %v, copy %v", i, err, gerr)
		}
		if !bytes.Equal(got.Findings, want.Findings) {
			t.Fatalf("entry %d: findings\n%s\nwant\n%s", i, got.Findings, want.Findings)
		}
		if !reflect.DeepEqual(got.Snapshot, want.Snapshot) {
			t.Fatalf("entry %d: snapshot differs", i)
		}
	}
}

func copyRecording(t *testing.T, in, out string) {
	src, err := Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	w, err := Create(out, src.Header())
	if err != nil {
		t.Fatal(err)
	}
	w.DeferFlush()
	for {
		e, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
