package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// The help overlay is drawn from the key map: a remapped key shows there.
func TestHelpDrawnFromKeyMap(t *testing.T) {
	m, _ := fixtureModel(5, 120, 40)
	m.c.keys.Topology = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "topology (remapped)"))
	v := press(m, "?").View()
	if !strings.Contains(v, "topology (remapped)") {
		t.Fatalf("help does not show the key map:\n%s", v)
	}
	m = press(m, "esc", "t")
	if m.topo.open {
		t.Error("t still opens the topology after remapping it to o")
	}
	if m = press(m, "o"); !m.topo.open {
		t.Error("o does not open the topology")
	}
}

// The mode order is explicit: a dialog beats the filter, the filter beats
// help, help beats the pages.
func TestModeOrder(t *testing.T) {
	m, _ := fixtureModel(5, 120, 40)
	m.showHelp, m.topo.open, m.detail.open = true, true, true
	if got := m.mode(); got != modeHelp {
		t.Errorf("help, detail and topology open: mode %d, want help", got)
	}
	m.procs.filtering = true
	if got := m.mode(); got != modeFilter {
		t.Errorf("filtering: mode %d, want filter", got)
	}
	m.confirm = &pendingSignal{}
	if got := m.mode(); got != modeConfirm {
		t.Errorf("dialog: mode %d, want confirm", got)
	}
	m.confirm, m.procs.filtering, m.showHelp, m.detail.open = nil, false, false, false
	if got := m.mode(); got != modeTopology {
		t.Errorf("topology only: mode %d", got)
	}
	m.topo.open = false
	if got := m.mode(); got != modePane {
		t.Errorf("nothing open: mode %d, want pane", got)
	}
}
