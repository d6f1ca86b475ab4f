package importer

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// A file that cannot be opened is named once, with the system's reason and
// what to check, and still answers errors.Is for the reason.
func TestOpenSourceMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "day.jsonl.gz")
	_, err := OpenSource(path, nil)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want not-exist", err)
	}
	if msg := err.Error(); strings.Count(msg, path) != 1 || strings.Contains(msg, "open ") || !strings.Contains(msg, "check the path") {
		t.Errorf("message %q: want the path once, no Go op prefix, and what to check", msg)
	}
}
