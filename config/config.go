// Package config reads gpuscope's settings file,
// $XDG_CONFIG_HOME/gpuscope/config.toml (else ~/.config/gpuscope/config.toml,
// as the XDG Base Directory Specification says). Flags win over the file and
// the file over the built-in defaults; main.go applies that order.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// File is the settings file. Zero values mean "not set": the default holds.
type File struct {
	Interval time.Duration `toml:"interval"` // sampling interval, 100ms to 60s
	Theme    string        `toml:"theme"`    // dark, light or mono
	NoColor  bool          `toml:"no_color"` // no colours
	Readonly bool          `toml:"readonly"` // the dashboard never signals a process
}

// Defaults are the values the dashboard uses without a file or flag.
func Defaults() File { return File{Interval: time.Second, Theme: "dark"} }

// Path is where the file is read: getenv("XDG_CONFIG_HOME") when set and
// absolute (the spec ignores a relative one), else HOME/.config.
func Path(getenv func(string) string) (string, error) {
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "gpuscope", "config.toml"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", errors.New("config: neither XDG_CONFIG_HOME nor HOME is set")
	}
	return filepath.Join(home, ".config", "gpuscope", "config.toml"), nil
}

// Load reads the file at path over the defaults. A missing file is no
// error (found false). A bad one returns the defaults and an error of one
// line naming the file, the line and the key.
func Load(path string) (f File, found bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), false, nil
	}
	if err != nil {
		return Defaults(), false, fmt.Errorf("config %s: %w", path, err)
	}
	f, err = Parse(b)
	if err != nil {
		return Defaults(), true, fmt.Errorf("config %s: %w (using the defaults)", path, err)
	}
	return f, true, nil
}

// Parse decodes a file's contents over the defaults and checks every value.
func Parse(b []byte) (File, error) {
	f := Defaults()
	md, err := toml.Decode(string(b), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			msg := pe.Message
			if pe.LastKey != "" {
				msg = fmt.Sprintf("key %s: %s", pe.LastKey, msg)
			}
			return Defaults(), fmt.Errorf("line %d: %s", pe.Position.Line, msg)
		}
		return Defaults(), err
	}
	if un := md.Undecoded(); len(un) > 0 {
		k := un[0].String()
		return Defaults(), fmt.Errorf("line %d: unknown key %s (known: interval, theme, no_color, readonly)", lineOf(b, k), k)
	}
	if f.Interval < 100*time.Millisecond || f.Interval > time.Minute {
		return Defaults(), fmt.Errorf("line %d: key interval: %s is out of range (100ms to 60s)", lineOf(b, "interval"), f.Interval)
	}
	switch f.Theme {
	case "dark", "light", "mono":
	default:
		return Defaults(), fmt.Errorf("line %d: key theme: %q is not dark, light or mono", lineOf(b, "theme"), f.Theme)
	}
	return f, nil
}

// lineOf is the 1-based line where key is assigned (0: not found). The
// TOML decoder reports lines of syntax errors only, not of values it read.
func lineOf(b []byte, key string) int {
	short := key[strings.LastIndex(key, ".")+1:]
	re := regexp.MustCompile(`^\s*"?` + regexp.QuoteMeta(short) + `"?\s*=`)
	for i, l := range bytes.Split(b, []byte("\n")) {
		if re.Match(l) {
			return i + 1
		}
	}
	return 0
}

// Template is what `gpuscope config init` writes: every key, commented out
// at its default.
const Template = `# gpuscope settings (docs/user-guide.md, "Config file").
# Flags win over this file; this file wins over the defaults shown.

# sampling interval, 100ms to 60s
# interval = "1s"

# colour theme: dark, light or mono
# theme = "dark"

# no colours (NO_COLOR in the environment does the same)
# no_color = false

# the dashboard never signals a process (k/K off)
# readonly = false
`

// Encode writes f as TOML (for `gpuscope config show`).
func Encode(f File) string {
	return fmt.Sprintf("interval = %q\ntheme = %q\nno_color = %t\nreadonly = %t\n", f.Interval, f.Theme, f.NoColor, f.Readonly)
}
