package main

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/gpuscope/gpuscope"

// archRow is one row of docs/ARCHITECTURE.md's package table.
type archRow struct {
	names []string // the packages as the table names them ("sampler/record"; "main.go" is the root)
	may   string   // the "may import" cell
}

// archTable reads the package table of docs/ARCHITECTURE.md.
func archTable(t *testing.T) []archRow {
	t.Helper()
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile("`([^`]+)`")
	var rows []archRow
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |"), " | ")
		if len(cells) != 3 {
			t.Fatalf("docs/ARCHITECTURE.md: a package row with %d cells, want 3: %.80s", len(cells), line)
		}
		var r archRow
		for _, m := range name.FindAllStringSubmatch(cells[0], -1) {
			r.names = append(r.names, m[1])
		}
		r.may = cells[2]
		rows = append(rows, r)
	}
	if len(rows) < 20 {
		t.Fatalf("docs/ARCHITECTURE.md: %d package rows", len(rows))
	}
	return rows
}

// importPath is the import path of a package the table names.
func importPath(name string) string {
	if name == "main.go" {
		return module
	}
	return module + "/" + name
}

// TestArchitectureTableListsEveryPackage holds docs/ARCHITECTURE.md's
// package table to the module: every package has a row, and no row names a
// package that no longer exists.
func TestArchitectureTableListsEveryPackage(t *testing.T) {
	var listed []string
	for _, r := range archTable(t) {
		for _, n := range r.names {
			listed = append(listed, importPath(n))
		}
	}
	out, err := exec.Command("go", "list", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		if !slices.Contains(listed, p) {
			t.Errorf("package %s has no row in docs/ARCHITECTURE.md", p)
		}
	}
	for _, p := range listed {
		if !slices.Contains(pkgs, p) {
			t.Errorf("docs/ARCHITECTURE.md lists %s, which is not a package", p)
		}
	}
}

// mayImport is a "may import" cell read for one package, by the grammar
// docs/ARCHITECTURE.md states under the table: ";" separates groups, ","
// entries; a group "NAME: …" is for the row's package NAME only, a group
// "tests: …" names what the package's tests import; "everything but …"
// allows every package of the module except those named; text in
// parentheses is a remark; "stdlib", "stdlib only" and "—" add nothing
// (the standard library is always allowed).
type mayImport struct {
	everything bool
	except     []string // module packages, by table name, when everything
	entries    []string // module packages by table name, other modules by short name
	tests      []string
}

var (
	remark       = regexp.MustCompile(`\s*\([^)]*\)`)
	majorVersion = regexp.MustCompile(`^v[0-9]+$`)
)

func parseMayImport(cell, pkg string, rowNames []string) mayImport {
	var m mayImport
	for _, group := range strings.Split(remark.ReplaceAllString(cell, ""), ";") {
		group = strings.TrimSpace(group)
		list := &m.entries
		if head, rest, ok := strings.Cut(group, ": "); ok && head == "tests" {
			list, group = &m.tests, rest
		} else if ok && slices.Contains(rowNames, head) {
			if head != pkg {
				continue
			}
			group = rest
		}
		if rest, ok := strings.CutPrefix(group, "everything but "); ok {
			m.everything, list, group = true, &m.except, rest
		}
		for _, e := range strings.Split(group, ",") {
			if e = strings.TrimSpace(e); e != "" && e != "stdlib" && e != "stdlib only" && e != "—" {
				*list = append(*list, e)
			}
		}
	}
	return m
}

// entryMatches: an entry names a module package by its table name
// (exactly that package), any other import by whole path elements of its
// import path, major version elements ignored: "cobra" is
// github.com/spf13/cobra, "x/term" golang.org/x/term, "go-nvml" every
// package of github.com/NVIDIA/go-nvml, "gopsutil" github.com/shirou/gopsutil/v4/….
func entryMatches(entry, imp string) bool {
	if name, ok := strings.CutPrefix(imp, module+"/"); ok {
		return entry == name
	}
	var elems []string
	for _, e := range strings.Split(imp, "/") {
		if !majorVersion.MatchString(e) {
			elems = append(elems, e)
		}
	}
	want := strings.Split(entry, "/")
	for i := 0; i+len(want) <= len(elems); i++ {
		if slices.Equal(elems[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// allows reports whether a package whose cell reads m may import imp.
func (m mayImport) allows(imp string) bool {
	if !strings.Contains(strings.Split(imp, "/")[0], ".") {
		return true // the standard library (and cgo's "C")
	}
	if m.everything && strings.HasPrefix(imp, module+"/") &&
		!slices.ContainsFunc(m.except, func(e string) bool { return entryMatches(e, imp) }) {
		return true
	}
	return slices.ContainsFunc(m.entries, func(e string) bool { return entryMatches(e, imp) })
}

// TestArchitectureTableMayImport holds the "may import" column of
// docs/ARCHITECTURE.md to what each package's non-test files import (go
// list's Imports): an import its row does not allow fails, and so does an
// entry none of the row's packages imports, so the column can drift
// neither way. Test files may import what they need; a "tests:" group only
// has to stay true.
func TestArchitectureTableMayImport(t *testing.T) {
	out, err := exec.Command("go", "list", "-f",
		`{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports, testImports := map[string][]string{}, map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("go list: %q", line)
		}
		imports[f[0]], testImports[f[0]] = strings.Fields(f[1]), strings.Fields(f[2])
	}
	rows := archTable(t)
	var names []string
	for _, r := range rows {
		names = append(names, r.names...)
	}
	for _, r := range rows {
		used := map[string]bool{}
		var entries, tests []string
		for _, name := range r.names {
			pkg := importPath(name)
			m := parseMayImport(r.may, name, r.names)
			for _, e := range m.except {
				if !slices.Contains(names, e) {
					t.Errorf("docs/ARCHITECTURE.md: %s may import everything but %q, which is no package of the table", name, e)
				}
			}
			entries, tests = append(entries, m.entries...), append(tests, m.tests...)
			for _, imp := range imports[pkg] {
				if !m.allows(imp) {
					t.Errorf("%s imports %s, which its row in docs/ARCHITECTURE.md does not allow (%q)", name, imp, r.may)
				}
				for _, e := range m.entries {
					used[e] = used[e] || entryMatches(e, imp)
				}
			}
			for _, e := range m.tests {
				used["tests: "+e] = used["tests: "+e] || slices.ContainsFunc(testImports[pkg], func(imp string) bool { return entryMatches(e, imp) })
			}
		}
		for _, e := range entries {
			if !used[e] {
				t.Errorf("docs/ARCHITECTURE.md: %s may import %q, which it does not import: take it out of the row", strings.Join(r.names, ", "), e)
			}
		}
		for _, e := range tests {
			if !used["tests: "+e] {
				t.Errorf("docs/ARCHITECTURE.md: the tests of %s import no %q", strings.Join(r.names, ", "), e)
			}
		}
	}
}

// TestOneWayFlow holds the layering of docs/ARCHITECTURE.md: sampler/...
// imports neither diagnose nor ui, diagnose/... not ui, and neither links
// the terminal libraries (bubbletea, lipgloss), directly or not; diagnose/...
// thinks and serves nothing, so it links no HTTP, no Prometheus client and
// no gRPC (the exporter is a face, ui/promexport; the fleet's values come as
// sampler/fleetsnap). The binary links none of the heavy packages the size
// goal took out.
func TestOneWayFlow(t *testing.T) {
	for _, c := range []struct {
		tree      string
		forbidden []string
	}{
		{"./sampler/...", []string{module + "/diagnose", module + "/ui", "github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss"}},
		{"./diagnose/...", []string{module + "/ui", "github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss",
			"net/http", "github.com/prometheus/client_golang", "github.com/prometheus/exporter-toolkit", "google.golang.org/grpc"}},
		// The binary itself: what the size goal removed stays out
		// (docs/benchmarks.md "What each dependency costs"); the tests may
		// still use them as oracles.
		{".", []string{"github.com/prometheus/common", "github.com/prometheus/client_golang", "github.com/prometheus/exporter-toolkit",
			"github.com/NVIDIA/go-nvml/pkg/nvml/mock", "github.com/klauspost/compress/zstd", "google.golang.org/grpc",
			// nsys exports are read by sampler/sqlite (~80 KB); SQLite
			// itself (~4 MB) writes and checks the tests' databases only.
			"modernc.org/sqlite", "modernc.org/libc"}},
	} {
		out, err := exec.Command("go", "list", "-deps", c.tree).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", c.tree, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, bad := range c.forbidden {
				if dep == bad || strings.HasPrefix(dep, bad+"/") {
					t.Errorf("%s depends on %s", c.tree, dep)
				}
			}
		}
	}
}
