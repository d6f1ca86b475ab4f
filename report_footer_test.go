package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/record"
)

// footerScenarios are demo scenarios whose short recordings the footer
// tests read: findings of several kinds, MIG, throttling, idle jobs.
var footerScenarios = []string{"mixed", "thermal_throttle", "mig"}

// recordFooter records scenario for d into dir and checks that the file
// ends with a footer record reads back.
func recordFooter(t testing.TB, dir, scenario, d string) string {
	t.Helper()
	path := filepath.Join(dir, scenario+".jsonl.gz")
	var out, errb bytes.Buffer
	if rc := run([]string{"record", "-o", path, "--demo=" + scenario, "--duration", d}, &out, &errb); rc != 0 {
		t.Fatalf("record %s: exit %d\n%s", scenario, rc, errb.String())
	}
	if _, err := record.ReadFooter(path); err != nil {
		t.Fatalf("record %s wrote no footer: %v", scenario, err)
	}
	return path
}

// runOut is run's standard output and error, failing on a non-zero exit.
func runOut(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if rc := run(args, &out, &errb); rc != 0 {
		t.Fatalf("%s: exit %d\n%s", strings.Join(args, " "), rc, errb.String())
	}
	return out.String() + "\x00" + errb.String()
}

// Every output of report and compare read from the footer is the bytes
// the lines give (--full): each format, in Chinese, with a price, and
// compare in text, JSON and markdown, on the first scenario; the text
// report and comparison on the others (the day and every scenario by cmp:
// docs/benchmarks.md). Each is two in-process reads under -race, so the
// variants are not repeated for every scenario.
func TestFooterReportsAsTheLines(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, s := range footerScenarios {
		paths = append(paths, recordFooter(t, dir, s, "10m"))
	}
	variants := [][]string{{}, {"--format", "json", "--price-per-kwh", "0.31"}, {"--format", "markdown"},
		{"--lang", "zh", "--format", "html"}, {"--lang", "zh", "--price-per-kwh", "0.31"}}
	compares := [][]string{{}, {"--format", "json"}, {"--format", "markdown", "--lang", "zh", "--price-per-kwh", "2"}}
	for i, p := range paths {
		if i > 0 {
			variants, compares = variants[:1], compares[:1]
		}
		for _, v := range variants {
			args := append([]string{"report", p}, v...)
			got, want := runOut(t, args...), runOut(t, append(args, "--full")...)
			if got != want {
				t.Errorf("%s: the footer's report differs from the lines':\n%s\n---- lines ----\n%s", strings.Join(args, " "), got, want)
			}
		}
		next := paths[(i+1)%len(paths)]
		for _, v := range compares {
			args := append([]string{"compare", p, next}, v...)
			if got, want := runOut(t, args...), runOut(t, append(args, "--full")...); got != want {
				t.Errorf("%s: the footers' comparison differs from the lines':\n%s\n---- lines ----\n%s", strings.Join(args, " "), got, want)
			}
		}
	}
}

// stripFooter is path's bytes without its footer.
func stripFooter(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint32(b[len(b)-18:])
	return b[:len(b)-int(n)]
}

// A footer is read only while it matches the bytes before it: a file cut,
// appended to, changed before its footer, or whose footer another version
// wrote reads its lines. The footer here holds a state the lines do not
// give (a sample count of 424242), so the report tells which was read.
func TestFooterFallsBackToTheLines(t *testing.T) {
	dir := t.TempDir()
	orig := recordFooter(t, dir, "mixed", "10m")
	lines := stripFooter(t, orig)
	out := runOut(t, "report", orig, "--format", "json")
	forged := bytes.Replace(footerState(t, orig), []byte(`"samples":600`), []byte(`"samples":424242`), 1)
	if bytes.Equal(forged, footerState(t, orig)) {
		t.Fatal("the state has no \"samples\":600 to forge")
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name+".jsonl.gz")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("forged", lines)
	if err := record.AppendFooter(good, forged); err != nil {
		t.Fatal(err)
	}
	if got := runOut(t, "report", good, "--format", "json"); !strings.Contains(got, `"samples": 424242`) {
		t.Fatalf("the forged footer was not read:\n%.1500s", got)
	}
	withFooter, _ := os.ReadFile(good)
	changed := bytes.Clone(withFooter)
	changed[len(lines)-30] ^= 0x40 // the last member's compressed bytes
	version := bytes.Clone(withFooter)
	version[len(lines)+16] = 99 // the footer's version byte
	for name, b := range map[string][]byte{
		"cut":      withFooter[:len(withFooter)-1],
		"appended": append(bytes.Clone(withFooter), lines[:len(lines)/2]...),
		"twice":    append(bytes.Clone(withFooter), withFooter[len(lines):]...),
		"changed":  changed,
		"version":  version,
	} {
		p := write(name, b)
		got := runAny("report", p, "--format", "json")
		if strings.Contains(got, "424242") {
			t.Errorf("%s: the footer was read", name)
		}
		if want := runAny("report", p, "--format", "json", "--full"); got != want {
			t.Errorf("%s: not the lines' report:\n%.1500s\n---- lines ----\n%.1500s", name, got, want)
		}
	}
	// and the version's file still reads as the original lines
	if got := runOut(t, "report", orig, "--format", "json", "--full"); got != out {
		t.Error("the original's report read from its footer differs from its lines'")
	}
}

// runAny is run's exit status, standard output and error.
func runAny(args ...string) string {
	var out, errb bytes.Buffer
	rc := run(args, &out, &errb)
	return fmt.Sprint(rc) + "\x00" + out.String() + "\x00" + errb.String()
}

// footerState is the state path's footer holds.
func footerState(t *testing.T, path string) []byte {
	t.Helper()
	b, err := record.ReadFooter(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
