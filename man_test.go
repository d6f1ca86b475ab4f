package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
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
