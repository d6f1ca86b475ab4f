package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if body != "" {
		if err := os.MkdirAll(filepath.Join(dir, "gpuscope"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "gpuscope", "config.toml"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestConfigFlagsWinFileWinsDefaults: the order flag > file > default,
// key by key.
func TestConfigFlagsWinFileWinsDefaults(t *testing.T) {
	writeConfig(t, "interval = \"2s\"\ntheme = \"mono\"\nreadonly = true\n")
	var f dashFlags
	fl := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fl.DurationVar(&f.interval, "interval", time.Second, "")
	fl.StringVar(&f.theme, "theme", "dark", "")
	fl.BoolVar(&f.noColor, "no-color", false, "")
	fl.BoolVar(&f.readonly, "readonly", false, "")
	if err := fl.Parse([]string{"--theme", "light"}); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	applyConfig(fl, &f, os.Getenv, &errb)
	if f.interval != 2*time.Second || f.theme != "light" || !f.readonly || f.noColor || errb.Len() != 0 {
		t.Errorf("got %+v, stderr %q; want interval 2s and readonly from the file, theme light from the flag", f, errb.String())
	}
}

// TestConfigProcessPaneAndLanguage: sort, sort_reverse, tree, hide and
// compute_only reach the dashboard's flags; language is read for explain
// (flag > file > locale).
func TestConfigProcessPaneAndLanguage(t *testing.T) {
	writeConfig(t, "sort = \"cpu\"\nsort_reverse = true\ntree = true\nhide = [\"host\"]\ncompute_only = true\nlanguage = \"zh\"\n")
	var f dashFlags
	fl := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var errb bytes.Buffer
	applyConfig(fl, &f, os.Getenv, &errb)
	if f.sort != "cpu" || !f.sortReverse || !f.tree || len(f.hide) != 1 || !f.computeOnly || errb.Len() != 0 {
		t.Errorf("got sort %q reverse %v tree %v, stderr %q", f.sort, f.sortReverse, f.tree, errb.String())
	}
	if got := configLanguage(os.Getenv); got != "zh" {
		t.Errorf("language = %q, want zh", got)
	}
	var out bytes.Buffer
	root := NewRoot(Deps{Getenv: func(k string) string {
		if k == "LANG" {
			return "en_US.UTF-8"
		}
		return os.Getenv(k)
	}}, &out, &errb)
	root.SetArgs([]string{"explain"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if !strings.ContainsFunc(out.String(), func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }) {
		t.Errorf("explain with language = \"zh\" in the file and LANG=en_US printed no Chinese:\n%s", out.String())
	}
}
