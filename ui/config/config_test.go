package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestPathXDGThenHome(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}
	get := func(k string) string { return env[k] }
	if p, _ := Path(get); p != "/x/gpuscope/config.toml" {
		t.Errorf("XDG: %s", p)
	}
	env["XDG_CONFIG_HOME"] = "relative" // the spec: ignore a relative path
	if p, _ := Path(get); p != "/h/.config/gpuscope/config.toml" {
		t.Errorf("HOME: %s", p)
	}
}

func TestLoadGoodFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(p, []byte("interval = \"500ms\"\ntheme = \"mono\"\nreadonly = true\n"), 0o600)
	f, found, err := Load(p, nil)
	if err != nil || !found {
		t.Fatal(found, err)
	}
	if f.Interval != 500*time.Millisecond || f.Theme != "mono" || !f.Readonly || f.NoColor {
		t.Errorf("%+v", f)
	}
}

func TestLoadMissingFileIsDefaults(t *testing.T) {
	f, found, err := Load(filepath.Join(t.TempDir(), "none.toml"), nil)
	if err != nil || found || !reflect.DeepEqual(f, Defaults()) {
		t.Errorf("%+v %v %v", f, found, err)
	}
}

func TestLoadBadFileNamesKeyAndLine(t *testing.T) {
	cases := []struct{ body, want string }{
		{"theme = \"dark\"\ninterval = \"10ms\"\n", "line 2: key interval"},
		{"\n\ntheme = \"neon\"\n", "line 3: key theme"},
		{"readonly = true\ncolour = 3\n", "line 2: unknown key colour"},
		{"interval = 5\n", "line 1"},
		{"theme = \n", "line 1"},
		{"tree = true\nsort = \"memory\"\n", "line 2: key sort"},
		{"language = \"fr\"\n", "line 1: key language"},
		{"tree = true\nhide = [\"host\", \"gpus\"]\n", "line 2: key hide: \"gpus\" is not one of findings, processes, host"},
	}
	for _, c := range cases {
		p := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(p, []byte(c.body), 0o600)
		f, _, err := Load(p, nil)
		if err == nil {
			t.Errorf("%q: no error", c.body)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") || !strings.Contains(msg, p) {
			t.Errorf("%q: error %q, want one line with %q and the path", c.body, msg, c.want)
		}
		if !reflect.DeepEqual(f, Defaults()) {
			t.Errorf("%q: bad file gave %+v, want the defaults", c.body, f)
		}
	}
}

func TestTemplateParsesToDefaults(t *testing.T) {
	f, err := Parse([]byte(Template), nil)
	if err != nil || !reflect.DeepEqual(f, Defaults()) {
		t.Errorf("%+v %v", f, err)
	}
	want := File{Interval: 2 * time.Second, Theme: "light", Readonly: true, Sort: "cpu", SortReverse: true, Tree: true,
		Language: "zh", Keys: map[string][]string{"quit": {"x"}}}
	g, err := Parse([]byte(Encode(want)), nil)
	if err != nil || !reflect.DeepEqual(g, want) {
		t.Errorf("round trip: %+v %v", g, err)
	}
}

func TestKeysTableCheckedWithLine(t *testing.T) {
	check := func(m map[string][]string) error {
		for n := range m {
			if n != "quit" {
				return fmt.Errorf("keys.%s: no such action", n)
			}
		}
		return nil
	}
	f, err := Parse([]byte("theme = \"mono\"\n[keys]\nquit = [\"x\"]\n"), check)
	if err != nil || f.Keys["quit"][0] != "x" || f.Theme != "mono" {
		t.Fatalf("%+v %v", f, err)
	}
	_, err = Parse([]byte("[keys]\nquit = [\"x\"]\nexplode = [\"e\"]\n"), check)
	if err == nil || !strings.Contains(err.Error(), "line 3: keys.explode") {
		t.Errorf("err = %v", err)
	}
	if _, err = Parse([]byte("[keys]\nquit = \"x\"\n"), check); err == nil {
		t.Error("a string where a list belongs was accepted")
	}
}

// hide and compute_only are read, and config show prints them back.
func TestHideAndComputeOnly(t *testing.T) {
	f, err := Parse([]byte("hide = [\"host\", \"processes\"]\ncompute_only = true\n"), nil)
	if err != nil || !reflect.DeepEqual(f.Hide, []string{"host", "processes"}) || !f.ComputeOnly {
		t.Fatalf("%+v %v", f, err)
	}
	if out := Encode(f); !strings.Contains(out, "hide = [\"host\", \"processes\"]\ncompute_only = true\n") {
		t.Errorf("config show:\n%s", out)
	}
	if _, err := Parse([]byte(strings.ReplaceAll(Template, "\n# hide", "\nhide")), nil); err != nil {
		t.Errorf("the template's hide line: %v", err)
	}
}
