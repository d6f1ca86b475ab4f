package record

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// writeRealistic records n realistic snapshots through the Writer into a
// file named name (gzipped, a member per linesPerMember lines, where it
// ends in .gz) and returns the file's path.
func writeRealistic(t testing.TB, name string, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	w, err := Create(path, HeaderFor(realisticSnapshot(0), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := w.Write(Entry{Snapshot: realisticSnapshot(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A gzip recording is a gzip member per linesPerMember lines, each opening
// with a whole line (no same_* list), and reads back as one stream.
func TestGzipMembersStartWhole(t *testing.T) {
	const n = 2*linesPerMember + 10
	path := writeRealistic(t, "r.jsonl.gz", n)
	f, _ := os.Open(path)
	defer f.Close()
	br := bufio.NewReader(f) // gzip reads a ByteReader byte-exact, so the next member starts where it stopped
	zr, _ := gzip.NewReader(br)
	zr.Multistream(false)
	members := 0
	for {
		text, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(text, []byte("\n")), []byte("\n"))
		first := lines[0]
		if members == 0 {
			first = lines[1] // after the header
		}
		if bytes.Contains(first, []byte(`"same_`)) {
			t.Errorf("member %d opens with a line that leaves fields out: %.200s", members, first)
		}
		members++
		if err := zr.Reset(br); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
	}
	if members != 3 {
		t.Errorf("%d gzip members for %d lines, want 3", members, n)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := readAll(t, r); len(got) != n || got[n-1].Seq != realisticSnapshot(n-1).Seq {
		t.Fatalf("read back %d of %d", len(got), n)
	}
}
