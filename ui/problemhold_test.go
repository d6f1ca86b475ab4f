package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/sampler"
)

// TestProblemLineStaysToBeRead: a problem said once (a driver without a
// function, a GPU lost) stays in the footer for problemHold, then the hints
// come back.
func TestProblemLineStaysToBeRead(t *testing.T) {
	const said = "driver 515.105.01 has no NVML function for sm_active"
	footerAt := func(ticks int) string {
		m := fixtureModelN(ticks, 2, 120, 40, func(s *sampler.Snapshot) {
			if s.Time.Equal(fixtureSnapshotN(1, 2).Time) {
				s.Problems = []string{said}
			}
		})
		lines := strings.Split(ansi.Strip(m.View()), "\n")
		return lines[len(lines)-1]
	}
	if f := footerAt(2); !strings.Contains(f, said) {
		t.Fatalf("the tick it is said: footer %q", f)
	}
	if f := footerAt(12); !strings.Contains(f, said) {
		t.Errorf("10 s later the line is gone: footer %q", f)
	}
	if f := footerAt(30); strings.Contains(f, said) || !strings.Contains(f, "quit") {
		t.Errorf("29 s later: footer %q, want the key hints back", f)
	}
}
