// Package uitest drives Bubble Tea models in tests by key name, so the
// dashboard's and replay's tests (and any later pane's) share one helper.
package uitest

import tea "github.com/charmbracelet/bubbletea"

// named are the keys whose tea.KeyMsg is not plain runes.
var named = map[string]tea.KeyType{
	"tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "enter": tea.KeyEnter, "esc": tea.KeyEsc,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"backspace": tea.KeyBackspace, "ctrl+c": tea.KeyCtrlC,
}

// Key is the message a terminal sends for the key named s: a name as
// tea.KeyMsg.String() spells it ("tab", "pgdown", "ctrl+c", "space"), else
// the runes of s.
func Key(s string) tea.KeyMsg {
	if s == "space" || s == " " {
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	if t, ok := named[s]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// Press sends the keys to m in order and returns the resulting model.
func Press[M tea.Model](m M, keys ...string) M {
	for _, k := range keys {
		nm, _ := m.Update(Key(k))
		m = nm.(M)
	}
	return m
}
