package ui

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// actions names the bindings a user may remap (the [keys] table of
// config.toml) and the help row each belongs to: the row's label is
// rebuilt from its bindings' keys when one of them is remapped. The digit
// keys of the GPU pages, ctrl+c, the dialog's y and the filter's own keys
// stay fixed: they are not commands one rebinds.
func (km *keyMap) actions() map[string]struct{ b, row *key.Binding } {
	one := func(b *key.Binding) struct{ b, row *key.Binding } { return struct{ b, row *key.Binding }{b, b} }
	in := func(b, row *key.Binding) struct{ b, row *key.Binding } { return struct{ b, row *key.Binding }{b, row} }
	r := &km.Replay
	return map[string]struct{ b, row *key.Binding }{
		"quit": one(&km.Quit), "help": one(&km.Help), "pause": one(&km.Pause), "record": one(&km.Record),
		"slower": one(&km.Slower), "faster": in(&km.Faster, &km.Slower),
		"focus": one(&km.Focus), "focus_back": in(&km.FocusBack, &km.Focus),
		"up": one(&km.Up), "down": in(&km.Down, &km.Up),
		"page_up": one(&km.PageUp), "page_down": one(&km.PageDown), // not in the overlay
		"enter": one(&km.Enter), "topology": one(&km.Topology), "tree": one(&km.Tree), "filter": one(&km.Filter),
		"term": one(&km.Term), "kill": in(&km.Kill, &km.Term), "back": one(&km.Back),
		"sort": one(&km.Sort), "sort_reverse": in(&km.SortReverse, &km.Sort),
		"toggle_findings": one(&km.ToggleFindings), "toggle_host": in(&km.ToggleHost, &km.ToggleFindings),
		"toggle_procs": in(&km.ToggleProcs, &km.ToggleFindings), "compute_only": one(&km.ComputeOnly),
		"prev_gpu": in(&km.PrevGPU, &km.GPUDetail), "next_gpu": in(&km.NextGPU, &km.GPUDetail),
		"replay_play": one(&r.Play), "replay_back": one(&r.StepBack), "replay_forward": in(&r.StepForward, &r.StepBack),
		"replay_jump_back": one(&r.JumpBack), "replay_jump_forward": in(&r.JumpForward, &r.JumpBack),
		"replay_start": one(&r.Start), "replay_end": in(&r.End, &r.Start),
		"replay_slower": one(&r.Slower), "replay_faster": in(&r.Faster, &r.Slower),
	}
}

// KeyActions are the names the [keys] table of config.toml accepts.
func KeyActions() []string {
	var km keyMap
	var names []string
	for n := range km.actions() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// remap gives each named action the keys listed (bubbletea's key names:
// "x", "ctrl+x", "f5", "space" for the space bar) and relabels the help
// rows it touches, so the `?` overlay shows the keys in force.
func (km *keyMap) remap(keys map[string][]string) error {
	acts := km.actions()
	names := make([]string, 0, len(keys))
	for n := range keys {
		names = append(names, n)
	}
	sort.Strings(names)
	var rows []*key.Binding
	for _, n := range names {
		a, ok := acts[n]
		if !ok {
			return fmt.Errorf("keys.%s: no such action (known: %s)", n, strings.Join(KeyActions(), ", "))
		}
		ks := keys[n]
		if len(ks) == 0 {
			return fmt.Errorf("keys.%s: no keys given", n)
		}
		for i, k := range ks {
			if k == "space" {
				ks[i] = " "
			}
		}
		h := a.b.Help()
		*a.b = key.NewBinding(key.WithKeys(ks...), key.WithHelp(h.Key, h.Desc))
		if !slices.Contains(rows, a.row) {
			rows = append(rows, a.row)
		}
	}
	for _, row := range rows {
		km.relabel(row, acts)
	}
	byBinding := make(map[*key.Binding]string, len(acts))
	for n, a := range acts {
		byBinding[a.b] = n
	}
	return km.clash(byBinding)
}

// relabel sets a help row's label to the keys of the bindings in it.
func (km *keyMap) relabel(row *key.Binding, acts map[string]struct{ b, row *key.Binding }) {
	var members []*key.Binding
	for _, a := range acts {
		if a.row == row && a.b != row {
			members = append(members, a.b)
		}
	}
	sort.Slice(members, func(i, j int) bool { return keyLabel(members[i]) < keyLabel(members[j]) })
	parts := []string{keyLabel(row)}
	if row == &km.GPUDetail {
		parts[0] = "1 … 9"
	}
	for _, m := range members {
		parts = append(parts, keyLabel(m))
	}
	h := row.Help()
	row.SetHelp(strings.Join(parts, " / "), h.Desc)
}

func keyLabel(b *key.Binding) string {
	ks := slices.Clone(b.Keys())
	for i, k := range ks {
		if k == " " {
			ks[i] = "space"
		}
	}
	return strings.Join(ks, " ")
}

// CheckKeys says whether a [keys] table would apply (main checks it before
// starting, so a bad table is one line and the default keys).
func CheckKeys(keys map[string][]string) error {
	km := defaultKeyMap()
	return km.remap(maps.Clone(keys))
}

// DefaultKeys are each action's keys without a [keys] table, in the
// table's spelling ("space" for the space bar), for `config show`.
func DefaultKeys() map[string][]string {
	km := defaultKeyMap()
	out := map[string][]string{}
	for n, a := range km.actions() {
		ks := slices.Clone(a.b.Keys())
		for i, k := range ks {
			if k == " " {
				ks[i] = "space"
			}
		}
		out[n] = ks
	}
	return out
}
