// Package config reads gpuscope's settings file,
// $XDG_CONFIG_HOME/gpuscope/config.toml (else ~/.config/gpuscope/config.toml,
// as the XDG Base Directory Specification says). Flags win over the file and
// the file over the built-in defaults; ui/cli applies that order.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
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
	// Sort is the process pane's column at start (SortColumns), largest
	// first unless SortReverse; s / S change it while running.
	Sort        string `toml:"sort"`
	SortReverse bool   `toml:"sort_reverse"`
	// Tree starts the process pane as a tree (DataLoader workers under
	// their GPU process), as T does.
	Tree bool `toml:"tree"`
	// Hide are main-screen panes hidden at start (Panes; F H P show them
	// again); ComputeOnly leaves graphics-only processes out, as c does.
	Hide        []string `toml:"hide"`
	ComputeOnly bool     `toml:"compute_only"`
	// Language of the dashboard and of explain's playbook pages: en or zh
	// ("" follows the locale: LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
	Language string `toml:"language"`
	// Keys remaps dashboard actions to keys: [keys] quit = ["x"].
	Keys map[string][]string `toml:"keys"`
}

// Defaults are the values the dashboard uses without a file or flag.
func Defaults() File { return File{Interval: time.Second, Theme: "dark", Sort: "gpu_mem"} }

// SortColumns are the values of sort, the process pane's sortable columns.
var SortColumns = []string{"pid", "gpu", "gpu_mem", "sm", "cpu", "rss", "time"}

// Panes are the values of hide: every main-screen pane but the GPUs.
var Panes = []string{"findings", "processes", "host"}

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
// checkKeys (nil: no check) judges one action's keys; the UI owns the
// action names.
func Load(path string, checkKeys func(map[string][]string) error) (f File, found bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), false, nil
	}
	if err != nil {
		return Defaults(), false, fmt.Errorf("config %s: %w", path, err)
	}
	f, err = Parse(b, checkKeys)
	if err != nil {
		return Defaults(), true, fmt.Errorf("config %s: %w (using the defaults)", path, err)
	}
	return f, true, nil
}

// Parse decodes a file's contents over the defaults and checks every value.
func Parse(b []byte, checkKeys func(map[string][]string) error) (File, error) {
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
	if len(f.Keys) == 0 {
		f.Keys = nil // an empty [keys] table: the defaults
	}
	if len(f.Hide) == 0 {
		f.Hide = nil // hide = [] (config show's) is the default, none hidden
	}
	if un := md.Undecoded(); len(un) > 0 {
		k := un[0].String()
		return Defaults(), fmt.Errorf("line %d: unknown key %s (known: interval, theme, no_color, readonly, sort, sort_reverse, tree, hide, compute_only, language, [keys])", lineOf(b, k), k)
	}
	if f.Interval < 100*time.Millisecond || f.Interval > time.Minute {
		return Defaults(), fmt.Errorf("line %d: key interval: %s is out of range (100ms to 60s)", lineOf(b, "interval"), f.Interval)
	}
	switch f.Theme {
	case "dark", "light", "mono":
	default:
		return Defaults(), fmt.Errorf("line %d: key theme: %q is not dark, light or mono", lineOf(b, "theme"), f.Theme)
	}
	if !slices.Contains(SortColumns, f.Sort) {
		return Defaults(), fmt.Errorf("line %d: key sort: %q is not one of %s", lineOf(b, "sort"), f.Sort, strings.Join(SortColumns, ", "))
	}
	for _, p := range f.Hide {
		if !slices.Contains(Panes, p) {
			return Defaults(), fmt.Errorf("line %d: key hide: %q is not one of %s (the GPU pane is always shown)", lineOf(b, "hide"), p, strings.Join(Panes, ", "))
		}
	}
	switch f.Language {
	case "", "en", "zh":
	default:
		return Defaults(), fmt.Errorf("line %d: key language: %q is not en or zh", lineOf(b, "language"), f.Language)
	}
	if checkKeys != nil {
		names := make([]string, 0, len(f.Keys))
		for n := range f.Keys {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if err := checkKeys(map[string][]string{n: f.Keys[n]}); err != nil {
				return Defaults(), fmt.Errorf("line %d: %w", lineOf(b, n), err)
			}
		}
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

# the process pane's sort column at start: pid, gpu, gpu_mem, sm, cpu, rss
# or time, largest first (sort_reverse: smallest first); s / S change it
# sort = "gpu_mem"
# sort_reverse = false

# start the process pane as a tree (DataLoader workers under their GPU
# process), as T does
# tree = false

# panes hidden at start: any of "findings", "processes", "host" (the GPU
# pane is always shown); F, P and H hide and show them while running
# hide = []

# show only compute processes (type C or C+G) in the process pane, leaving
# graphics-only (G) ones out, as c does
# compute_only = false

# language of the dashboard and of explain's playbook pages: en or zh;
# unset follows the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); --lang wins
# language = "en"

# key bindings: action = [keys] (bubbletea names: "x", "ctrl+x", "f5",
# "space"); the ? overlay shows them. The defaults:
[keys]
# quit = ["q", "ctrl+c"]
# help = ["?"]
# pause = ["space"]
# record = ["r"]
# slower = ["+", "="]
# faster = ["-", "_"]
# focus = ["tab"]
# focus_back = ["shift+tab"]
# up = ["up", "k"]
# down = ["down", "j"]
# page_up = ["pgup"]
# page_down = ["pgdown"]
# enter = ["enter"]
# topology = ["t"]
# tree = ["T"]
# filter = ["/"]
# term = ["k"]
# kill = ["K"]
# back = ["esc", "backspace"]
# sort = ["s"]
# sort_reverse = ["S"]
# toggle_findings = ["F"]
# toggle_host = ["H"]
# toggle_procs = ["P"]
# compute_only = ["c"]
# prev_gpu = ["left", "h"]
# next_gpu = ["right", "l"]
# The replay's timeline (gpuscope replay):
# replay_play = ["space"]
# replay_back = ["left"]
# replay_forward = ["right"]
# replay_jump_back = ["["]
# replay_jump_forward = ["]"]
# replay_start = ["home"]
# replay_end = ["end"]
# replay_slower = ["<", ",", "-", "_"]
# replay_faster = [">", ".", "+", "="]
`

// Encode writes f as TOML: every key (Settings), [keys] last.
func Encode(f File) string {
	return Format(Settings(f, nil, func(string) (string, string) { return FromDefault, "" }), nil)
}

// Format writes settings as TOML, [keys] last. With annotate, each line
// ends in a comment (`config show`: where its value came from), the
// comments aligned by pad (a width in terminal cells).
func Format(ss []Setting, annotate func(s Setting, line string) string) string {
	var b strings.Builder
	inKeys := false
	for _, st := range ss {
		key := st.Key
		if k, ok := strings.CutPrefix(key, "keys."); ok {
			if !inKeys {
				b.WriteString("\n[keys]\n")
				inKeys = true
			}
			key = k
		}
		line := key + " = " + st.Value
		if annotate != nil {
			line = annotate(st, line)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
