package ui

import (
	"fmt"
	"slices"

	"github.com/charmbracelet/bubbles/key"
)

// keyScope is a set of bindings that answer at the same time, so no key
// may be in two of them: a remap that gives one key two meanings in one
// place would leave one of them unreachable.
type keyScope struct {
	name     string
	bindings []*key.Binding
	// allowed pairs share keys by design.
	allowed [][2]*key.Binding
}

// scopes are the places keys are read: the main screen (with the global
// keys), a GPU page, and a replay's timeline over the dashboard. By design
// k is both up (vim) and SIGTERM (in the process pane), and a replay's
// timeline keys take over space, +/- and ←→ from pause, the interval and
// the GPU page's GPU switch.
func (km *keyMap) scopes() []keyScope {
	global := []*key.Binding{&km.Quit, &km.Help, &km.Pause, &km.Record, &km.Faster, &km.Slower}
	main := append(slices.Clone(global), &km.Focus, &km.FocusBack, &km.Up, &km.Down, &km.PageUp, &km.PageDown,
		&km.Enter, &km.GPUDetail, &km.Topology, &km.Tree, &km.Filter, &km.Term, &km.Kill, &km.Back, &km.Sort, &km.SortReverse,
		&km.ToggleFindings, &km.ToggleHost, &km.ToggleProcs, &km.ComputeOnly)
	gpuPage := append(slices.Clone(global), &km.Back, &km.Up, &km.Down, &km.PageUp, &km.PageDown, &km.PrevGPU, &km.NextGPU, &km.GPUDetail)
	r := &km.Replay
	timeline := []*key.Binding{&r.Play, &r.StepBack, &r.StepForward, &r.JumpBack, &r.JumpForward, &r.Start, &r.End, &r.Slower, &r.Faster}
	var replay []*key.Binding
	for _, b := range main {
		if b != &km.Pause && b != &km.Faster && b != &km.Slower { // the timeline's keys take these over
			replay = append(replay, b)
		}
	}
	return []keyScope{
		{"the main screen", main, [][2]*key.Binding{{&km.Up, &km.Term}}},
		{"a GPU page", gpuPage, nil},
		{"a replay", append(replay, timeline...), [][2]*key.Binding{{&km.Up, &km.Term}}},
	}
}

// clash finds a key with two meanings in one scope; names maps a binding
// to its [keys] action name.
func (km *keyMap) clash(names map[*key.Binding]string) error {
	for _, s := range km.scopes() {
		seen := map[string]*key.Binding{}
		for _, b := range s.bindings {
			for _, k := range b.Keys() {
				other, ok := seen[k]
				if !ok || other == b || allowedPair(s.allowed, other, b) {
					seen[k] = b
					continue
				}
				return fmt.Errorf("keys: %s and %s both use %q on %s; give one of them another key",
					actionName(names, other), actionName(names, b), keyName(k), s.name)
			}
		}
	}
	return nil
}

func allowedPair(pairs [][2]*key.Binding, a, b *key.Binding) bool {
	return slices.ContainsFunc(pairs, func(p [2]*key.Binding) bool { return (p[0] == a && p[1] == b) || (p[0] == b && p[1] == a) })
}

func actionName(names map[*key.Binding]string, b *key.Binding) string {
	if n, ok := names[b]; ok {
		return "keys." + n
	}
	return "the fixed key " + b.Help().Key // the GPU digits, not remappable
}

func keyName(k string) string {
	if k == " " {
		return "space"
	}
	return k
}
