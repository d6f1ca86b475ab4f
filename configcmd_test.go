package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
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

// TestConfigShowEverySetting: config show prints every key config.toml
// accepts (enumerated from config.File's fields, so a new one must be
// shown) and every key action, each with where its value came from: the
// default, the file, the environment or a flag.
func TestConfigShowEverySetting(t *testing.T) {
	writeConfig(t, "theme = \"light\"\n[keys]\nquit = [\"x\"]\n")
	t.Setenv("NO_COLOR", "1")
	for _, v := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES"} {
		t.Setenv(v, "")
	}
	t.Setenv("LANG", "en_US.UTF-8")
	var out, errb bytes.Buffer
	if got := run([]string{"config", "show", "--interval", "2s"}, &out, &errb); got != 0 {
		t.Fatalf("status %d: %s", got, errb.String())
	}
	lines := map[string]string{}
	section := ""
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "[") {
			section = strings.Trim(l, "[]") + "."
			continue
		}
		if k, rest, ok := strings.Cut(l, " = "); ok && !strings.HasPrefix(l, "#") {
			lines[section+k] = rest
		}
	}
	ft := reflect.TypeFor[config.File]()
	for i := range ft.NumField() {
		key, _, _ := strings.Cut(ft.Field(i).Tag.Get("toml"), ",")
		if key == "keys" {
			continue
		}
		if l, ok := lines[key]; !ok || !regexp.MustCompile(`  # (default|file|env \w+|flag --[\w-]+)$`).MatchString(l) {
			t.Errorf("config show: key %s (File.%s) missing or without its source: %q", key, ft.Field(i).Name, l)
		}
	}
	for _, a := range ui.KeyActions() {
		if _, ok := lines["keys."+a]; !ok {
			t.Errorf("config show: [keys] %s missing", a)
		}
	}
	for key, want := range map[string]string{
		"interval": `"2s"  # flag --interval`, "theme": `"light"  # file`, "no_color": `true  # env NO_COLOR`,
		"readonly": `false  # default`, "language": `"en"  # env LANG`, "keys.quit": `["x"]  # file`, "keys.help": `["?"]  # default`,
		"keys.pause": `["space"]  # default`,
	} {
		if got := strings.Join(strings.Fields(lines[key]), " "); got != strings.Join(strings.Fields(want), " ") {
			t.Errorf("%s = %q, want %q", key, lines[key], want)
		}
	}
	// What it prints is a config.toml that reads back to the same settings.
	if _, err := config.Parse(out.Bytes(), ui.CheckKeys); err != nil {
		t.Errorf("config show's output does not parse: %v\n%s", err, out.String())
	}
}

// TestConfigShowBadFlag: a flag's value the dashboard would refuse is a
// usage error naming the key, not a setting shown as in effect.
func TestConfigShowBadFlag(t *testing.T) {
	writeConfig(t, "")
	var out, errb bytes.Buffer
	if got := run([]string{"config", "show", "--theme", "neon"}, &out, &errb); got != 2 || !strings.Contains(errb.String(), `key theme: "neon" is not dark, light or mono`) {
		t.Errorf("status %d, stderr %q, stdout %q", got, errb.String(), out.String())
	}
}
