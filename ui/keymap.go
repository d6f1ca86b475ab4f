package ui

import "github.com/charmbracelet/bubbles/key"

// keyMap is every key of the dashboard, declared once: the handlers match
// against it and the `?` overlay is drawn from its help (so a later user
// remapping changes both). A binding with empty help shares the row of the
// one before it in helpOrder.
type keyMap struct {
	Quit, Help, Pause, Record, Faster, Slower key.Binding
	Focus, FocusBack                          key.Binding
	Up, Down, PageUp, PageDown                key.Binding
	Enter, GPUDetail, Topology, Tree, Filter  key.Binding
	Term, Kill, Back, Sort, SortReverse       key.Binding
	// Hide / show a pane (one help row), and compute processes only.
	ToggleFindings, ToggleHost, ToggleProcs, ComputeOnly key.Binding
	// Inside the GPU detail page.
	PrevGPU, NextGPU key.Binding
	// Inside a y/n dialog.
	Confirm key.Binding
	// While typing the process filter.
	FilterKeep, FilterClear key.Binding
	// ForceQuit works in every mode, even while typing.
	ForceQuit key.Binding
	// Replay is the timeline's keys of `gpuscope replay`: in this one map
	// so [keys] remaps them and ? lists them (there only).
	Replay ReplayKeys
}

// ReplayKeys are the replay's timeline keys; ui/replay matches keys
// against them before the dashboard sees the rest.
type ReplayKeys struct {
	Play, StepBack, StepForward, JumpBack, JumpForward, Start, End, Slower, Faster key.Binding
}

func defaultKeyMap() keyMap {
	b := binding
	return keyMap{
		Focus:       b([]string{"tab"}, "tab / shift+tab", "move focus: GPUs → findings → processes"),
		FocusBack:   b([]string{"shift+tab"}, "", ""),
		Up:          b([]string{"up", "k"}, "↑ ↓  k j", "move in the focused pane (k is SIGTERM in processes)"),
		Down:        b([]string{"down", "j"}, "", ""),
		PageUp:      b([]string{"pgup"}, "", ""),
		PageDown:    b([]string{"pgdown"}, "", ""),
		Enter:       b([]string{"enter"}, "enter", "open the selected finding, GPU (its charts) or process (its history)"),
		GPUDetail:   b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1 … 9", "GPU detail of GPU 0 … 8 (←→ switch GPU inside)"),
		PrevGPU:     b([]string{"left", "h"}, "", ""),
		NextGPU:     b([]string{"right", "l"}, "", ""),
		Topology:    b([]string{"t"}, "t", "topology: GPU×GPU links, CPU affinity, NUMA"),
		Tree:        b([]string{"T"}, "T", "process tree: DataLoader workers and their CPU %"),
		Filter:      b([]string{"/"}, "/", "filter processes: user, command, container or gpu:N"),
		Term:        b([]string{"k"}, "k / K", "SIGTERM / SIGKILL the selected process (asks first)"),
		Kill:        b([]string{"K"}, "", ""),
		Back:        b([]string{"esc", "backspace"}, "esc", "back"),
		Sort:        b([]string{"s"}, "s / S", "process table: next sort column / reverse (or click)"),
		SortReverse: b([]string{"S"}, "", ""),
		// F H P and c were free on every screen (keyclash.go's scopes).
		ToggleFindings: b([]string{"F"}, "F / H / P", "hide / show the findings, host or process pane"),
		ToggleHost:     b([]string{"H"}, "", ""),
		ToggleProcs:    b([]string{"P"}, "", ""),
		ComputeOnly:    b([]string{"c"}, "c", "processes: compute only (hide graphics-only G)"),
		Pause:          b([]string{" "}, "space", "pause (keep the last data)"),
		Record:         b([]string{"r"}, "r", "start / stop recording to gpuscope-<time>.jsonl.gz"),
		Faster:         b([]string{"-", "_"}, "", ""),
		Slower:         b([]string{"+", "="}, "+ / -", "sample less / more often (100ms … 60s)"),
		Help:           b([]string{"?"}, "?", "this help"),
		Quit:           b([]string{"q", "ctrl+c"}, "q  ctrl+c", "quit"),
		ForceQuit:      b([]string{"ctrl+c"}, "", ""),
		Confirm:        b([]string{"y"}, "", ""),
		FilterKeep:     b([]string{"enter"}, "", ""),
		FilterClear:    b([]string{"esc"}, "", ""),
		Replay: ReplayKeys{
			Play:        b([]string{" "}, "space", "play / pause the replay"),
			StepBack:    b([]string{"left"}, "← →", "one snapshot back / forward (pauses)"),
			StepForward: b([]string{"right"}, "", ""),
			JumpBack:    b([]string{"["}, "[ ]", "jump 10 s back / forward"),
			JumpForward: b([]string{"]"}, "", ""),
			Start:       b([]string{"home"}, "home / end", "first / last snapshot"),
			End:         b([]string{"end"}, "", ""),
			Slower:      b([]string{"<", ",", "-", "_"}, "< >", "play slower / faster (0.5× … 60×)"),
			Faster:      b([]string{">", ".", "+", "="}, "", ""),
		},
	}
}

// offered says which of the actions that depend on how the dashboard runs
// it has: a replay has no pause (space plays), no sampling interval (+/-
// set the speed) and no recording; signals need a live node and no
// --readonly.
type offered struct{ replay, signals, record, interval, noGPU bool }

func (o Options) offered() offered {
	return offered{replay: o.Replay, signals: o.Kill != nil && !o.ReadOnly, record: o.Record != nil, interval: o.SetInterval != nil}
}

// helpOrder is the `?` overlay's rows, in order: a replay's timeline keys
// first, where there is one; keys that would do nothing here are left out.
func (km keyMap) helpOrder(o offered) []key.Binding {
	var rows []key.Binding
	if o.noGPU {
		// No driver: the panel and the host pane, with nothing to move
		// to, open, sort or filter; what still acts is the clock and the way out.
		return km.clockAndExit(rows, o)
	}
	if r := km.Replay; o.replay {
		rows = append(rows, r.Play, r.StepBack, r.JumpBack, r.Start, r.Slower)
	}
	rows = append(rows, km.Focus, km.Up, km.Enter, km.GPUDetail, km.Topology, km.Tree, km.Filter)
	if o.signals {
		rows = append(rows, km.Term)
	}
	rows = append(rows, km.Back, km.Sort, km.ComputeOnly, km.ToggleFindings)
	return km.clockAndExit(rows, o)
}

// clockAndExit ends every help list: pause, recording and the interval
// where they act, then help and quit.
func (km keyMap) clockAndExit(rows []key.Binding, o offered) []key.Binding {
	if !o.replay {
		rows = append(rows, km.Pause)
	}
	if o.record {
		rows = append(rows, km.Record)
	}
	if o.interval {
		rows = append(rows, km.Slower)
	}
	return append(rows, km.Help, km.Quit)
}

// helpRows are the overlay's rows: each binding's label and text.
func (km keyMap) helpRows(o offered) [][2]string {
	var rows [][2]string
	for _, b := range km.helpOrder(o) {
		if h := b.Help(); h.Key != "" {
			rows = append(rows, [2]string{h.Key, h.Desc})
		}
	}
	return rows
}

// binding is one key binding with its help. Not inlined: a copy at each of
// defaultKeyMap's ~40 bindings cost the binary kilobytes.
//
//go:noinline
func binding(keys []string, label, help string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, help))
}
