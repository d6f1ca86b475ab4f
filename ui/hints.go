package ui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// footerHints are the key hints of each mode, in (key, what) pairs. They
// are built once from the key map in force, so a key remapped in
// config.toml's [keys] is the key the footer names, as the `?` overlay does.
type footerHints struct {
	main, noGPU, detail, gpuDetail, topology, confirm []string
}

// newFooterHints spells each action as the footer always has ("↑↓",
// "tab") while it keeps its default keys, and as the keys in force once
// remapped: a hint naming a key that no longer works would mislead.
func newFooterHints(km *keyMap, tr *i18n.Tr) footerHints {
	def := defaultKeyMap()
	w := func(id string) string { return hintWord(tr, id) }
	k := hintKey
	updown := "↑↓"
	if !slices.Equal(km.Up.Keys(), def.Up.Keys()) || !slices.Equal(km.Down.Keys(), def.Down.Keys()) {
		updown = keyLabel(&km.Up) + "/" + keyLabel(&km.Down)
	}
	quit := k(&km.Quit, &def.Quit, "q")
	back := k(&km.Back, &def.Back, "esc")
	scroll := updown + " pgup pgdn"
	if !slices.Equal(km.PageUp.Keys(), def.PageUp.Keys()) || !slices.Equal(km.PageDown.Keys(), def.PageDown.Keys()) {
		scroll = updown + " " + keyLabel(&km.PageUp) + "/" + keyLabel(&km.PageDown)
	}
	gpus := "←→ 1-9"
	if !slices.Equal(km.PrevGPU.Keys(), def.PrevGPU.Keys()) || !slices.Equal(km.NextGPU.Keys(), def.NextGPU.Keys()) {
		gpus = keyLabel(&km.PrevGPU) + "/" + keyLabel(&km.NextGPU) + " 1-9"
	}
	return footerHints{
		main: []string{k(&km.Focus, &def.Focus, "tab"), w("focus"), updown, w("move"), k(&km.Enter, &def.Enter, "enter"), w("detail"),
			"1-9", w("gpu"), k(&km.Topology, &def.Topology, "t"), w("topology"), k(&km.Tree, &def.Tree, "T"), w("tree"),
			k(&km.Filter, &def.Filter, "/"), w("filter"), k(&km.Sort, &def.Sort, "s"), w("sort"),
			k(&km.Pause, &def.Pause, "space"), w("pause"), k(&km.Help, &def.Help, "?"), w("help"), quit, w("quit")},
		noGPU:     []string{k(&km.Pause, &def.Pause, "space"), w("pause"), k(&km.Help, &def.Help, "?"), w("help"), quit, w("quit")},
		detail:    []string{back, w("back"), scroll, w("scroll"), quit, w("quit")},
		gpuDetail: []string{back, w("back"), gpus, w("gpu"), scroll, w("scroll"), quit, w("quit")},
		topology:  []string{back, w("back"), quit, w("quit")},
		confirm:   []string{"y", w("send"), w("other_keys"), w("cancel")},
	}
}

// hintWord is the footer's word for id. Not inlined, nor hintKey: a copy
// of either at each of the ~30 calls above cost the binary ~13 KB.
//
//go:noinline
func hintWord(tr *i18n.Tr, id string) string {
	if tr == nil {
		return id
	}
	return tr.T("hint." + id)
}

// hintKey is label while cur keeps its default keys d, else the keys in
// force.
//
//go:noinline
func hintKey(cur, d *key.Binding, label string) string {
	if slices.Equal(cur.Keys(), d.Keys()) {
		return label
	}
	return keyLabel(cur)
}
