package ui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
)

// footerHints are the key hints of each mode, in (key, what) pairs. They
// are built once from the key map in force, so a key remapped in
// config.toml's [keys] is the key the footer names, as the `?` overlay does.
type footerHints struct {
	main, detail, gpuDetail, topology, confirm []string
}

// newFooterHints spells each action as the footer always has ("↑↓",
// "tab") while it keeps its default keys, and as the keys in force once
// remapped: a hint naming a key that no longer works would mislead.
func newFooterHints(km *keyMap) footerHints {
	def := defaultKeyMap()
	k := func(cur, d *key.Binding, label string) string {
		if slices.Equal(cur.Keys(), d.Keys()) {
			return label
		}
		return keyLabel(cur)
	}
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
		main: []string{k(&km.Focus, &def.Focus, "tab"), "focus", updown, "move", k(&km.Enter, &def.Enter, "enter"), "detail",
			"1-9", "GPU", k(&km.Topology, &def.Topology, "t"), "topology", k(&km.Tree, &def.Tree, "T"), "tree",
			k(&km.Filter, &def.Filter, "/"), "filter", k(&km.Sort, &def.Sort, "s"), "sort",
			k(&km.Pause, &def.Pause, "space"), "pause", k(&km.Help, &def.Help, "?"), "help", quit, "quit"},
		detail:    []string{back, "back", scroll, "scroll", quit, "quit"},
		gpuDetail: []string{back, "back", gpus, "GPU", scroll, "scroll", quit, "quit"},
		topology:  []string{back, "back", quit, "quit"},
		confirm:   []string{"y", "send", "other keys", "cancel"},
	}
}
