package ui

import (
	"strings"
	"syscall"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gpuscope/gpuscope/ui/uitest"
)

// quits says whether cmd, run as Bubble Tea runs a batch, asks to quit.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if quits(c) {
				return true
			}
		}
	}
	return false
}

// Two keys in one read (tmux send-keys qq, a fast typist over ssh) come
// from Bubble Tea v1 as one key "qq": each must act, so q q quits and j j
// moves two rows. A paste is not keys.
func TestKeyBurstActsKeyByKey(t *testing.T) {
	m, _ := fixtureModel(1, 80, 24)
	if _, cmd := m.Update(uitest.Key("qq")); !quits(cmd) {
		t.Error(`the burst "qq" did not quit`)
	}
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("qq"), Paste: true}); quits(cmd) {
		t.Error(`pasting "qq" quit`)
	}
	procs := func() Model { return press(fixtureModelN(3, 8, 200, 50, nil), "tab", "tab") } // models share their panes
	one, burst := press(procs(), "j", "j"), press(procs(), "jj")
	if one.procs.cursor != 2 || burst.procs.cursor != one.procs.cursor {
		t.Errorf(`the burst "jj" moved the cursor to row %d, j j to row %d; want 2`, burst.procs.cursor, one.procs.cursor)
	}
}

// The signal's question takes only a key pressed alone: a burst that opens
// it ("ky") must not also answer it, a burst while it is open cancels, and
// y alone still sends.
func TestKeyBurstNeverConfirmsASignal(t *testing.T) {
	var sent []syscall.Signal
	m := signalModel(t, 424243, currentUser(t), func(o *Options) {
		o.Kill = func(_ int, sig syscall.Signal) error { sent = append(sent, sig); return nil }
	})
	m = press(m, "ky")
	if len(sent) != 0 || !m.Asking() {
		t.Fatalf(`the burst "ky": sent %v, question open %v; want nothing sent and the question open`, sent, m.Asking())
	}
	if m = press(m, "yy"); len(sent) != 0 || m.Asking() {
		t.Fatalf(`the burst "yy" on the question: sent %v, question open %v; want it cancelled`, sent, m.Asking())
	}
	if m = press(m, "k", "y"); len(sent) != 1 || sent[0] != syscall.SIGTERM {
		t.Errorf("k, then y alone: sent %v, want SIGTERM", sent)
	}
}

// Text typed or pasted into the process filter arrives whole, and a burst
// that opens the filter types the rest into it.
func TestKeyBurstIntoTheFilter(t *testing.T) {
	for _, keys := range [][]string{{"/", "train.py"}, {"/train.py"}} {
		fm := press(fixtureModelN(3, 8, 200, 50, nil), keys...)
		pasted, _ := fm.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" --rank"), Paste: true})
		fm = press(pasted.(Model), "enter")
		if v := fm.View(); !strings.Contains(v, "filter: train.py --rank") {
			t.Errorf("%q, then a paste: the filter is not %q:\n%s", keys, "train.py --rank", v)
		}
	}
}
