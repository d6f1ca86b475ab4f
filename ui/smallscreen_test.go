package ui

import (
	"strings"
	"testing"
)

// TestHiddenPanesTakeNoFocus: at 40×10 the process pane is not drawn, so
// tab never moves to it and / does not open a filter nobody can see (it
// says why); a resize that hides the focused pane moves focus back.
func TestHiddenPanesTakeNoFocus(t *testing.T) {
	m, _ := fixtureModel(3, 40, 10)
	if m.layout.Procs.H != 0 {
		t.Skipf("the process pane fits at 40×10 now (%d rows): nothing to test", m.layout.Procs.H)
	}
	for range 6 {
		m = press(m, "tab")
		if m.c.focus == focusProcs {
			t.Fatal("tab focused the hidden process pane")
		}
	}
	m = press(m, "/")
	if m.procs.filtering || m.CapturesKeys() {
		t.Fatal("/ opened an invisible filter")
	}
	if v := m.View(); !strings.Contains(v, "process pane is hidden") {
		t.Errorf("/ said nothing:\n%s", v)
	}
	requireFits(t, m.View(), 40, 10)

	big, _ := fixtureModel(3, 120, 40)
	big = press(big, "tab", "tab") // GPUs → findings → processes
	if big.c.focus != focusProcs {
		t.Fatalf("focus %d, want the process pane", big.c.focus)
	}
	big = press(big, "/")
	big = big.resize(40, 10)
	if big.c.focus == focusProcs || big.procs.filtering {
		t.Error("focus stayed on a pane the resize hid")
	}
}

// TestGPUSortHeaderAt80Columns: sorted by GPU, the header reads GPU▼ (it
// was cut to GP… at 80 columns).
func TestGPUSortHeaderAt80Columns(t *testing.T) {
	m, _ := fixtureModel(3, 80, 24)
	for range len(m.procs.cols) {
		if m.procs.cols[m.procs.sortBy].name == "GPU" {
			break
		}
		m = press(m, "s")
	}
	v := m.View()
	if !strings.Contains(v, "GPU▼") || strings.Contains(v, "GP…") {
		t.Errorf("sort header:\n%s", v)
	}
}

// TestNumberKeyBeyondGPUsSaysSo: 9 on an 8-GPU node says there is no GPU 8.
func TestNumberKeyBeyondGPUsSaysSo(t *testing.T) {
	m, _ := fixtureModel(3, 120, 40)
	m = press(m, "9")
	if m.pages.isOpen(pageGPU) || !strings.Contains(m.View(), "no GPU 8 here: keys 1-8 open GPUs 0-7") {
		t.Errorf("9 on 8 GPUs:\n%s", m.View())
	}
}
