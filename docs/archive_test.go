package docs

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var updatePlaybook = flag.Bool("update-playbook", false, "rewrite docs/playbook.z from docs/playbook/*.md and docs/playbook/zh/*.md")

// pagesFS is the playbook as written, for the tests that read every page;
// TestPlaybookArchive holds the binary's copy equal to it.
var pagesFS = os.DirFS(".")

// sourcePages are the pages on disk in the archive's order: English, then
// Chinese, each by name.
func sourcePages(t *testing.T) (paths []string, pages map[string][]byte) {
	t.Helper()
	pages = map[string][]byte{}
	for _, glob := range []string{"playbook/*.md", "playbook/zh/*.md"} {
		names, err := filepath.Glob(filepath.FromSlash(glob))
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(names)
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.ToSlash(n)
			paths = append(paths, p)
			pages[p] = b
		}
	}
	return paths, pages
}

func TestPlaybookArchive(t *testing.T) {
	paths, pages := sourcePages(t)
	if *updatePlaybook {
		out, err := WriteArchive(paths, pages)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(archiveName, out, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d pages, %d bytes", archiveName, len(paths), len(out))
		return // the embedded copy is the old one until the next build
	}
	const fix = "the playbook changed: go test ./docs -run TestPlaybookArchive -args -update-playbook"
	got := playbook().Paths()
	for _, p := range got {
		if b, ok := readPage(p); !ok || !bytes.Equal(b, pages[p]) {
			t.Errorf("%s differs from the archive's copy; %s", p, fix)
		}
	}
	if !slices.Equal(got, paths) {
		t.Errorf("archive holds %v, the pages on disk are %v; %s", got, paths, fix)
	}
	if _, ok := readPage("playbook/no_such_rule.md"); ok {
		t.Error("a page not in the archive was found")
	}
}

// BenchmarkPlaybookLang is the cost of a page from the compressed archive:
// the last Chinese page, the furthest into the stream.
func BenchmarkPlaybookLang(b *testing.B) {
	rules := Rules()
	last := rules[len(rules)-1]
	for b.Loop() {
		if _, ok := PlaybookLang(last, "zh"); !ok {
			b.Fatal("no page")
		}
	}
}
