package ui

import tea "github.com/charmbracelet/bubbletea"

// Burst is k one key at a time when k is several keys that came in one
// read: tmux's `send-keys qq`, a fast typist over ssh. Bubble Tea v1 reads
// them as one key of several runes ("qq"), bound to nothing, so q q did
// not quit. Nil for a single key and for a paste (bracketed), which a text
// field takes whole.
func Burst(k tea.KeyMsg) []tea.KeyMsg {
	if k.Type != tea.KeyRunes || len(k.Runes) < 2 || k.Paste {
		return nil
	}
	keys := make([]tea.KeyMsg, len(k.Runes))
	for i, r := range k.Runes {
		keys[i] = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}
	}
	return keys
}

// Asking reports whether the signal's y/n question is open. It takes only
// a key pressed alone: a burst that opened it (k then y in one read) must
// not also answer it, and a burst while it is open is not y, so cancels.
func (m Model) Asking() bool { return m.pages.top() == pageConfirm }

// handleKeys handles a burst key by key, unless the dashboard takes keys
// whole (a filter being typed, the question); the keys of a burst after
// the one that opened the question are dropped, so it waits for a lone key.
func (m Model) handleKeys(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	keys := Burst(k)
	if keys == nil || m.CapturesKeys() {
		return m.handleKey(k)
	}
	var cmds []tea.Cmd
	for _, k := range keys {
		if m.Asking() {
			break
		}
		next, cmd := m.handleKey(k)
		m, cmds = next.(Model), append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}
