package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDriverCompatibilityTable holds docs/driver-compatibility.md true:
// at least 25 behaviours, each with a GitHub source and the Go test that
// plays it, and every test it names exists in the source tree (a subtest
// "TestX/name" needs TestX and the literal "name" in its file).
func TestDriverCompatibilityTable(t *testing.T) {
	b, err := os.ReadFile("driver-compatibility.md")
	if err != nil {
		t.Fatal(err)
	}
	tests := testFuncs(t, "..")
	rows := 0
	for line := range strings.Lines(string(b)) {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) != 7 || strings.HasPrefix(cells[1], "---") || strings.TrimSpace(cells[1]) == "behaviour" {
			continue
		}
		rows++
		behaviour, source, names := cells[1], cells[3], strings.TrimSpace(cells[5])
		if !strings.Contains(source, "https://github.com/") {
			t.Errorf("%q: no GitHub source", behaviour)
		}
		if names == "" {
			t.Errorf("%q: no test", behaviour)
		}
		for _, name := range strings.Split(names, ", ") {
			top, sub, _ := strings.Cut(name, "/")
			file, ok := tests[top]
			if !ok {
				t.Errorf("%q names %s, which is no test in the tree", behaviour, top)
				continue
			}
			if sub != "" && !strings.Contains(file, `"`+sub+`"`) {
				t.Errorf("%q names %s, but %s has no case %q", behaviour, name, top, sub)
			}
		}
	}
	if rows < 25 {
		t.Errorf("%d behaviours in the table, want at least 25", rows)
	}
}

var testFunc = regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`)

// testFuncs maps every test function under root to its file's text.
func testFuncs(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
