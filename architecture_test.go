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

// TestArchitectureTableListsEveryPackage holds docs/ARCHITECTURE.md's
// package table to the module: every package has a row, and no row names a
// package that no longer exists.
func TestArchitectureTableListsEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile("`([^`]+)`")
	var listed []string
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
		for _, m := range name.FindAllStringSubmatch(first, -1) {
			pkg := module + "/" + m[1]
			if m[1] == "main.go" {
				pkg = module
			}
			listed = append(listed, pkg)
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
