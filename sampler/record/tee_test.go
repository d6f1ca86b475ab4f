package record

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Tee hands on exactly the text the gzip file inflates to, header and
// every line, across gzip members (the first line of each written whole);
// a tee that fails is dropped and the recording goes on.
func TestTeeIsTheInflatedText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl.gz")
	w, err := Create(path, HeaderFor(realisticSnapshot(0), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var tee bytes.Buffer
	w.Tee(&tee)
	n := linesPerMember + 40
	for i := range n {
		if err := w.Write(Entry{Snapshot: realisticSnapshot(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tee.Bytes(), text) {
		t.Fatalf("the tee got %d bytes, %d lines; the file inflates to %d bytes, %d lines",
			tee.Len(), bytes.Count(tee.Bytes(), []byte("\n")), len(text), bytes.Count(text, []byte("\n")))
	}
	if got := bytes.Count(text, []byte("\n")); got != n+1 {
		t.Fatalf("%d lines, want %d", got, n+1)
	}

	w, err = Overwrite(path, HeaderFor(realisticSnapshot(0), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	bad := &failing{}
	w.Tee(bad)
	for i := range 3 {
		if err := w.Write(Entry{Snapshot: realisticSnapshot(i)}); err != nil {
			t.Fatalf("a failed tee failed the recording: %v", err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if bad.calls != 1 {
		t.Errorf("a failed tee was written %d times, want once", bad.calls)
	}
}

type failing struct{ calls int }

func (f *failing) Write([]byte) (int, error) {
	f.calls++
	return 0, errors.New("closed")
}

// Each line of a gzip recording is in the file once Write returns, the
// file's buffer flushed with deflate's sync block: a recorder killed
// right after loses nothing it wrote.
func TestGzipLineOnDiskAfterWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl.gz")
	w, err := Create(path, HeaderFor(realisticSnapshot(0), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := range 3 {
		if err := w.Write(Entry{Snapshot: realisticSnapshot(i)}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(b), path, Options{})
		if err != nil {
			t.Fatalf("after line %d: %v", i+1, err)
		}
		if got := len(readAll(t, r)); got != i+1 {
			t.Fatalf("after line %d the file reads %d lines", i+1, got)
		}
	}
}
