package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/sampler"
)

// TestProcUserUsesTheRoom: at 200 columns the USER column widens to the
// longest name, so "svc-inference" reads whole; at 80, where COMMAND has
// no room to spare, it is cut as before. The command keeps the rest.
func TestProcUserUsesTheRoom(t *testing.T) {
	long := "svc-inference"
	edit := func(s *sampler.Snapshot) {
		for gi := range s.GPUs {
			for pi := range s.GPUs[gi].Procs {
				if h := s.GPUs[gi].Procs[pi].Host; h != nil {
					h.User = long
					return
				}
			}
		}
	}
	wide := ansi.Strip(fixtureModelN(3, 4, 200, 50, edit).View())
	if !strings.Contains(wide, " "+long+" ") {
		t.Errorf("at 200 columns the user %q is cut:\n%s", long, wide)
	}
	for _, l := range strings.Split(wide, "\n") {
		if ansi.StringWidth(l) > 200 {
			t.Errorf("a line overflows 200 columns: %q", l)
		}
	}
	narrow := ansi.Strip(fixtureModelN(3, 4, 80, 24, edit).View())
	if strings.Contains(narrow, long) || !strings.Contains(narrow, "svc-inf…") {
		t.Errorf("at 80 columns the user column should keep 8 cells:\n%s", narrow)
	}
}
