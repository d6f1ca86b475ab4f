package config

import (
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Where a setting in effect came from, for `config show`.
const (
	FromDefault = "default"
	FromFile    = "file"
	FromEnv     = "env"
	FromFlag    = "flag"
)

// Setting is one key of the file as it is in effect: its value written as
// TOML, where it came from (a From… constant) and, for env and flag, which
// variable or flag set it.
type Setting struct {
	Key, Value, From, By string
}

// Keys are the top-level keys the file accepts, read from File's toml
// tags so a new field is listed (and shown) without another list to keep.
func Keys() []string {
	t := reflect.TypeFor[File]()
	var out []string
	for i := range t.NumField() {
		if k, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ","); k != "" && k != "-" {
			out = append(out, k)
		}
	}
	return out
}

// DefinedIn are the keys the file at path sets ("interval", "keys.quit");
// none when it is missing or unreadable (Load reports that).
func DefinedIn(path string) map[string]bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var f File
	md, err := toml.Decode(string(b), &f)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, k := range md.Keys() {
		out[k.String()] = true
	}
	return out
}

// Settings are every key of f with its value in TOML, in File's order, then
// one per action of keys (the keys in force: defaults under f.Keys). from
// says where a top-level key's value came from; key actions come from the
// file where f.Keys names them, else the defaults.
func Settings(f File, defaultKeys map[string][]string, from func(key string) (string, string)) []Setting {
	v := reflect.ValueOf(f)
	t := v.Type()
	var out []Setting
	for i := range t.NumField() {
		k, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
		if k == "" || k == "keys" {
			continue
		}
		src, by := from(k)
		out = append(out, Setting{Key: k, Value: tomlValue(v.Field(i).Interface()), From: src, By: by})
	}
	names := slices.Sorted(maps.Keys(defaultKeys))
	for n := range f.Keys {
		if _, ok := defaultKeys[n]; !ok {
			names = append(names, n) // Parse's checkKeys refuses those; Encode is given no defaults
		}
	}
	slices.Sort(names)
	for _, n := range names {
		ks, src := defaultKeys[n], FromDefault
		if mine, ok := f.Keys[n]; ok {
			ks, src = mine, FromFile
		}
		out = append(out, Setting{Key: "keys." + n, Value: tomlValue(ks), From: src})
	}
	return out
}

// tomlValue is x as a TOML value: a duration as "1s", strings quoted.
func tomlValue(x any) string {
	switch x := x.(type) {
	case time.Duration:
		return fmt.Sprintf("%q", x.String())
	case string:
		return fmt.Sprintf("%q", x)
	case []string:
		q := make([]string, len(x))
		for i, s := range x {
			q[i] = fmt.Sprintf("%q", s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprint(x)
}
