package ui

import (
	"io"
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

// painted sends each message to m through the Painter, as the dashboard
// runs, and returns the model and the last command.
func painted(m Model, msgs ...tea.Msg) (Model, tea.Cmd) {
	var p tea.Model = NewPainter(m, io.Discard, 15)
	var cmd tea.Cmd
	for _, msg := range msgs {
		p, cmd = p.Update(msg)
	}
	return p.(Painter).inner.(Model), cmd
}

func paste(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s), Paste: true} }

// Two keys in one read (tmux send-keys qq, a fast typist over ssh) come
// from Bubble Tea v1 as one key "qq": each must act, so q q quits and j j
// moves two rows. A paste is not keys.
func TestKeyBurstActsKeyByKey(t *testing.T) {
	m, _ := fixtureModel(1, 80, 24)
	if _, cmd := painted(m, uitest.Key("qq")); !quits(cmd) {
		t.Error(`the burst "qq" did not quit`)
	}
	if _, cmd := painted(m, paste("qq")); quits(cmd) {
		t.Error(`pasting "qq" quit`)
	}
	procs := func() Model { return press(fixtureModelN(3, 8, 200, 50, nil), "tab", "tab") } // models share their panes
	one, _ := painted(procs(), uitest.Key("j"), uitest.Key("j"))
	burst, _ := painted(procs(), uitest.Key("jj"))
	if one.procs.cursor != 2 || burst.procs.cursor != one.procs.cursor {
		t.Errorf(`the burst "jj" moved the cursor to row %d, j j to row %d; want 2`, burst.procs.cursor, one.procs.cursor)
	}
}

// The signal's question takes only a key pressed alone: a burst that opens
// it ("ky") must not also answer it, nor a burst while it is open; y alone
// still sends.
func TestKeyBurstNeverConfirmsASignal(t *testing.T) {
	var sent []syscall.Signal
	m := signalModel(t, 424243, currentUser(t), func(o *Options) {
		o.Kill = func(_ int, sig syscall.Signal) error { sent = append(sent, sig); return nil }
	})
	if m, _ = painted(m, uitest.Key("ky")); len(sent) != 0 || m.CapturesKeys() {
		t.Fatalf(`the burst "ky": sent %v, question open %v; want nothing sent, the question cancelled`, sent, m.CapturesKeys())
	}
	if m, _ = painted(m, uitest.Key("k"), uitest.Key("yy")); len(sent) != 0 || m.CapturesKeys() {
		t.Fatalf(`the burst "yy" on the question: sent %v, question open %v; want it cancelled`, sent, m.CapturesKeys())
	}
	if m, _ = painted(m, uitest.Key("k"), uitest.Key("y")); len(sent) != 1 || sent[0] != syscall.SIGTERM {
		t.Errorf("k, then y alone: sent %v, want SIGTERM", sent)
	}
}

// Text typed or pasted into the process filter arrives whole, and a burst
// that opens the filter types the rest into it.
func TestKeyBurstIntoTheFilter(t *testing.T) {
	for _, keys := range [][]string{{"/", "train.py"}, {"/train.py"}} {
		var msgs []tea.Msg
		for _, k := range keys {
			msgs = append(msgs, uitest.Key(k))
		}
		fm, _ := painted(fixtureModelN(3, 8, 200, 50, nil), append(msgs, paste(" --rank"), uitest.Key("enter"))...)
		if v := fm.View(); !strings.Contains(v, "filter: train.py --rank") {
			t.Errorf("%q, then a paste: the filter is not %q:\n%s", keys, "train.py --rank", v)
		}
	}
}
