package record

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// footered writes a gzip recording of n lines and returns its path and
// its text.
func footered(t testing.TB, n int) (string, []byte) {
	t.Helper()
	path := writeRealistic(t, "run.jsonl.gz", n)
	return path, gunzip(t, path)
}

// gunzip is what gzip -dc writes of path (the standard library's reader,
// every member).
func gunzip(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := stdgzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A footer, one member or several (a state over 64 KiB), inflates to
// nothing: gzip readers see the same text, and the recording's reader the
// same entries without a warning; ReadFooter gives the state back.
func TestFooterIsNothingToGzip(t *testing.T) {
	big := make([]byte, 200_000) // incompressible: four members
	for i := range big {
		big[i] = byte(rand.IntN(256))
	}
	for _, state := range [][]byte{[]byte(`{"version":1}`), big} {
		path, text := footered(t, 700) // two members of lines
		before := readWith(t, path, Options{})
		if err := AppendFooter(path, state); err != nil {
			t.Fatal(err)
		}
		if got := gunzip(t, path); !bytes.Equal(got, text) {
			t.Fatalf("gzip reads %d bytes after the footer, %d before", len(got), len(text))
		}
		after := readWith(t, path, Options{})
		if len(after) != len(before) || after[len(after)-1].Seq != 700 {
			t.Fatalf("the reader read %d entries after the footer, %d before", len(after), len(before))
		}
		got, err := ReadFooter(path)
		if err != nil || !bytes.Equal(got, state) {
			t.Fatalf("ReadFooter: %v, %d bytes of %d", err, len(got), len(state))
		}
	}
}

// ReadFooter refuses a file whose footer does not match what precedes it.
func TestFooterRefused(t *testing.T) {
	path, _ := footered(t, 30)
	plain, _ := os.ReadFile(path)
	if _, err := ReadFooter(path); err == nil {
		t.Fatal("a recording without a footer read one")
	}
	if err := AppendFooter(path, []byte("state")); err != nil {
		t.Fatal(err)
	}
	whole, _ := os.ReadFile(path)
	flip := func(i int) []byte { b := bytes.Clone(whole); b[i] ^= 1; return b }
	for name, b := range map[string][]byte{
		"cut":          whole[:len(whole)-1],
		"appended":     append(bytes.Clone(whole), '\n'),
		"a line byte":  flip(len(plain) - 20),
		"the header":   flip(3),
		"its version":  flip(len(plain) + 16),
		"its crc":      flip(len(plain) + 16 + 8),
		"its last seq": flip(len(plain) + 16 + 32),
		"its magic":    flip(len(whole) - 11),
		"two footers":  append(bytes.Clone(whole), whole[len(plain):]...),
		"no lines":     whole[len(plain):],
	} {
		p := filepath.Join(t.TempDir(), "x.jsonl.gz")
		os.WriteFile(p, b, 0o600)
		if st, err := ReadFooter(p); err == nil {
			t.Errorf("%s: read %q", name, st)
		}
	}
}

// FuzzReadFooter: any file's end to the footer's reader, which must not
// panic and reads a footer only from a file that ends in one.
func FuzzReadFooter(f *testing.F) {
	path, _ := footered(f, 3)
	if err := AppendFooter(path, []byte(`{"version":1,"gpus":[]}`)); err != nil {
		f.Fatal(err)
	}
	whole, _ := os.ReadFile(path)
	f.Add(whole)
	f.Add(whole[len(whole)-200:])
	f.Add([]byte("GSF1\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "f.jsonl.gz")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if st, err := ReadFooter(p); err == nil && !bytes.HasSuffix(b, footerEnd) {
			t.Fatalf("read %q from a file that does not end as a footer", st)
		}
	})
}
