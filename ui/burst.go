package ui

import tea "github.com/charmbracelet/bubbletea"

// keyTaker is a model that can say it takes keys as text now (the process
// filter being typed, the signal's y/n question): ui.Model. A replay is
// handed bursts key by key: its dashboard asks no question (it signals no
// process) and its filter takes keys one by one as typed.
type keyTaker interface{ CapturesKeys() bool }

// update passes msg to m, a burst of keys one key at a time. Keys that
// came in one read (tmux's `send-keys qq`, a fast typist over ssh) reach
// Bubble Tea v1 as one key of several runes ("qq"), bound to nothing, so
// q q did not quit. A paste (bracketed) is not split, nor a burst while m
// takes keys as text; once a key of the burst makes m take text, the rest
// goes whole, as a paste: typed into a filter the burst opened, and never
// the lone y that the signal's question takes (a burst "ky" opens it and
// cancels it, it sends nothing).
//
// Its commands are guarded (guard).
func update(m tea.Model, msg tea.Msg) (tea.Model, []tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok || k.Type != tea.KeyRunes || len(k.Runes) < 2 || k.Paste {
		m, cmd := m.Update(msg)
		return m, []tea.Cmd{guard(cmd)}
	}
	var cmds []tea.Cmd
	for i := range k.Runes {
		one := tea.KeyMsg{Type: tea.KeyRunes, Runes: k.Runes[i : i+1]}
		if kt, ok := m.(keyTaker); ok && kt.CapturesKeys() {
			one.Runes, one.Paste = k.Runes[i:], i > 0
		}
		var cmd tea.Cmd
		m, cmd = m.Update(one)
		if cmds = append(cmds, guard(cmd)); len(one.Runes) > 1 {
			break
		}
	}
	return m, cmds
}
