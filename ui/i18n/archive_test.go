package i18n

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gpuscope/gpuscope/docs"
)

var updateWords = flag.Bool("update-words", false, "rewrite ui/i18n/words.z from ui/i18n/*.toml")

// TestWordsArchive holds the embedded message files (words.z) equal to the
// *.toml beside them, the files people edit.
func TestWordsArchive(t *testing.T) {
	names, err := filepath.Glob("*.toml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no message files: %v", err)
	}
	slices.Sort(names)
	disk := map[string][]byte{}
	for _, n := range names {
		if disk[n], err = os.ReadFile(n); err != nil {
			t.Fatal(err)
		}
	}
	if *updateWords {
		out, err := docs.WriteArchive(names, disk)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("words.z", out, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote words.z: %d files, %d bytes", len(names), len(out))
		return // the embedded copy is the old one until the next build
	}
	const fix = "a message file changed: go test ./ui/i18n -run TestWordsArchive -args -update-words"
	got, _ := files.Glob("*")
	if !slices.Equal(got, names) {
		t.Fatalf("words.z holds %v, the files on disk are %v; %s", got, names, fix)
	}
	for _, n := range names {
		if b, err := files.ReadFile(n); err != nil || !bytes.Equal(b, disk[n]) {
			t.Errorf("%s differs from words.z's copy; %s", n, fix)
		}
	}
	if _, err := files.ReadFile("none.en.toml"); err == nil {
		t.Error("a file not in words.z was read")
	}
}
