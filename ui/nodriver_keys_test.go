package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/sampler"
)

// TestNoDriverOffersOnlyActingKeys: without a driver the screen is the
// explanation and the host pane; the footer and the `?` overlay offer only
// the keys that act there (pause, help, quit), not GPU pages, topology,
// the process tree, the filter or sorting, which do nothing on it.
func TestNoDriverOffersOnlyActingKeys(t *testing.T) {
	m, _ := fixtureModel(0, 120, 40)
	s := fixtureSnapshot(0)
	s.GPUs = nil
	s.Node.GPUError = &sampler.SourceError{Tried: "libnvidia-ml.so.1", Err: "ERROR_LIBRARY_NOT_FOUND"}
	m = push(m, s)
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	footer := lines[len(lines)-1]
	for _, want := range []string{"space pause", "? help", "q quit"} {
		if !strings.Contains(footer, want) {
			t.Errorf("footer %q lacks %q", footer, want)
		}
	}
	help := ansi.Strip(press(m, "?").View())
	for _, dead := range []string{"topology", "1-9", "filter", "sort", "tree"} {
		if strings.Contains(footer, dead) {
			t.Errorf("footer %q offers %q, which does nothing without a GPU", footer, dead)
		}
		if strings.Contains(help, dead) {
			t.Errorf("help offers %q, which does nothing without a GPU:\n%s", dead, help)
		}
	}
	if !strings.Contains(help, "quit") {
		t.Errorf("help lacks the way out:\n%s", help)
	}
	// With GPUs the same keys are offered again.
	m, _ = fixtureModel(4, 120, 40)
	if v := ansi.Strip(press(m, "?").View()); !strings.Contains(v, "topology") {
		t.Errorf("with GPUs, help lacks topology:\n%s", v)
	}
}
