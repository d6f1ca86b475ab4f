package main

import (
	"bytes"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"

	"github.com/gpuscope/gpuscope/docs"
)

var updateMan = flag.Bool("update-man", false, "rewrite docs/man from the command tree (make man)")

// TestManPages holds docs/man equal to the man pages cobra generates from
// the command tree, so a flag or command added without `make man` fails here.
// The date is fixed so the pages change only when the commands do.
func TestManPages(t *testing.T) {
	tmp := t.TempDir()
	root := newRootCmd(io.Discard, io.Discard)
	root.DisableAutoGenTag = true
	date := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	hdr := &doc.GenManHeader{Title: "GPUSCOPE", Section: "1", Source: "gpuscope", Manual: "gpuscope manual", Date: &date}
	if err := doc.GenManTree(root, hdr, tmp); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("docs", "man")
	got, _ := filepath.Glob(filepath.Join(tmp, "*.1"))
	if len(got) < 8 {
		t.Fatalf("only %d man pages generated", len(got))
	}
	if *updateMan {
		if err := os.RemoveAll(want); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(want, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range got {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(want, filepath.Base(p))
		if *updateMan {
			if err := os.WriteFile(dst, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(dst)
		if err != nil || !bytes.Equal(old, b) {
			t.Errorf("%s is out of date with the command tree: run `make man`", dst)
		}
	}
	if have, _ := filepath.Glob(filepath.Join(want, "*.1")); len(have) != len(got) && !*updateMan {
		t.Errorf("docs/man has %d pages, the command tree %d: run `make man`", len(have), len(got))
	}
}

// pflag reads a `quoted` word in a flag's usage as the name of its value:
// "--fallback-demo make run" looked like a flag that takes a value. Every
// usage line of every command must show boolean flags without a value name.
func TestHelpShowsNoFalseValueNames(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() != "bool" {
				return
			}
			if name, _ := pflag.UnquoteUsage(f); name != "" {
				t.Errorf("%s --%s: help shows it as taking a value %q", c.CommandPath(), f.Name, name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(io.Discard, io.Discard))
	var out bytes.Buffer
	run([]string{"--help"}, &out, io.Discard)
	if strings.Contains(out.String(), "--fallback-demo make") {
		t.Errorf("--help still shows --fallback-demo with a value:\n%s", out.String())
	}
}

// explain: --raw is the page's Markdown, --lang zh the Chinese page, the
// locale chooses when the flag is absent (ui/cli TestChooseLang), and a bad
// --lang is one line.
func TestExplainLangAndRaw(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"explain", "input_starved", "--raw"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	en, _ := docs.Playbook("input_starved")
	if out.String() != en {
		t.Fatalf("--raw is not the page's Markdown")
	}
	out.Reset()
	run([]string{"explain", "input_starved", "--lang", "zh", "--width", "70", "--theme", "mono"}, &out, &errb)
	if !strings.Contains(out.String(), "GPU 在等数据加载") || strings.Contains(out.String(), "```") || strings.Contains(out.String(), "\x1b") {
		t.Fatalf("--lang zh --width 70 --theme mono: not the rendered Chinese page without escapes:\n%s", out.String())
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if ansi.StringWidth(l) > 70 {
			t.Fatalf("line wider than --width 70: %q", l)
		}
	}
	errb.Reset()
	if code := run([]string{"explain", "--lang", "fr"}, &out, &errb); code != 2 || strings.Count(errb.String(), "\n") != 1 {
		t.Fatalf("--lang fr: exit %d, stderr %q; want 2 and one line", code, errb.String())
	}
}

// User-facing text cites what a user can open: a key of docs/references.md
// and its section, not the repository's internal names for its sources
// ("seed 000 §1", "anchors §A"). Hints, help, reports and error lines are
// all Go strings, so every Go file is held to it (tests too: they assert
// the texts users see).
func TestNoInternalCitationsInCode(t *testing.T) {
	// Also the research notes' tags ("[gs: anchors D]", "[src: anchors B]")
	// and "chosen here": a threshold says its source key or its reasoning.
	// A comment cites a page of docs/, never a design note or an issue a
	// reader of the repository cannot open (DESIGN.md, "issue 11").
	internal := regexp.MustCompile(`(?i)seed 00\d|anchors §|anchors [A-G]\b|diagnosis-anchors|\[gs[\]:]|chosen here|DESIGN\.md|\bissues? \d+|\bissue's`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || path == "man_test.go" || path == "docs/references_test.go" { // the two checks name what they look for
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if internal.MatchString(line) {
				t.Errorf("%s:%d cites an internal name; cite a docs/references.md key or a page of docs/: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
