package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/config"
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

// TestConfigBadFileStillStarts: one line naming the line and key, then the
// dashboard (here --once) runs with the defaults.
func TestConfigBadFileStillStarts(t *testing.T) {
	writeConfig(t, "theme = \"dark\"\ninterval = \"10ms\"\n")
	var out, errb bytes.Buffer
	if got := run([]string{"--demo", "--once"}, &out, &errb); got != 0 {
		t.Fatalf("status %d: %s", got, errb.String())
	}
	msg := errb.String()
	if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "line 2: key interval") {
		t.Errorf("stderr %q: want one line naming line 2 and the key", msg)
	}
	if !strings.Contains(out.String(), "[demo:mixed]") {
		t.Errorf("no snapshot:\n%s", out.String())
	}
}

func TestConfigPathShowInit(t *testing.T) {
	dir := writeConfig(t, "")
	want := filepath.Join(dir, "gpuscope", "config.toml")
	var out, errb bytes.Buffer
	if run([]string{"config", "path"}, &out, &errb) != 0 || strings.TrimSpace(out.String()) != want {
		t.Fatalf("path: %q %q", out.String(), errb.String())
	}
	out.Reset()
	if run([]string{"config", "show"}, &out, &errb) != 0 || !strings.Contains(out.String(), "# no ") || !strings.Contains(out.String(), `interval = "1s"`) {
		t.Fatalf("show without a file: %q", out.String())
	}
	out.Reset()
	if run([]string{"config", "init"}, &out, &errb) != 0 {
		t.Fatalf("init: %q", errb.String())
	}
	if b, err := os.ReadFile(want); err != nil || !strings.Contains(string(b), "# theme = \"dark\"") {
		t.Fatalf("init wrote %q, %v", b, err)
	}
	errb.Reset()
	if got := run([]string{"config", "init"}, &out, &errb); got != 2 || !strings.Contains(errb.String(), "exists") {
		t.Errorf("second init: %d %q", got, errb.String())
	}
	os.WriteFile(want, []byte("readonly = true\n"), 0o600)
	out.Reset()
	if run([]string{"config", "show"}, &out, &errb) != 0 || !strings.Contains(out.String(), "readonly = true") || !strings.Contains(out.String(), "# from ") {
		t.Errorf("show with a file: %q", out.String())
	}
}

// TestConfigTemplateNamesEveryAction: config init documents each action
// the key map accepts, and the file's [keys] reach the dashboard's options.
func TestConfigTemplateNamesEveryAction(t *testing.T) {
	for _, a := range ui.KeyActions() {
		if !strings.Contains(config.Template, "# "+a+" = [") {
			t.Errorf("config.Template lacks the action %s", a)
		}
	}
	f, err := config.Parse([]byte(regexp.MustCompile(`(?m)^# (\w+ = \[)`).ReplaceAllString(config.Template, "$1")), ui.CheckKeys)
	if err != nil {
		t.Fatalf("the template with every line uncommented: %v", err)
	}
	if len(f.Keys) != len(ui.KeyActions()) {
		t.Errorf("%d actions in the template, %d in the key map", len(f.Keys), len(ui.KeyActions()))
	}
}

func TestConfigBadKeysTableOneLine(t *testing.T) {
	writeConfig(t, "[keys]\nexplode = [\"e\"]\n")
	var out, errb bytes.Buffer
	if got := run([]string{"--demo", "--once"}, &out, &errb); got != 0 {
		t.Fatalf("status %d", got)
	}
	if msg := errb.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "line 2: keys.explode: no such action") {
		t.Errorf("stderr %q", msg)
	}
}
