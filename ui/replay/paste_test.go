package replay

import (
	"github.com/gpuscope/gpuscope/sampler/record/spool"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
)

// A pasted table (one snapshot) replays with the findings its evidence
// proves, as main wires it (diagnose.NewEvidenceViewTracker): the live rules alone
// need a sustained window and would show none.
func TestReplayOfAPasteShowsEvidenceFindings(t *testing.T) {
	tl, _, err := spool.Load("../../sampler/importer/testdata/real/smi-table-8xh800-525-100pct-lowpower-llm-action-alpaca.txt")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{UI: uiOptions(), NewTracker: func() *diagnose.Tracker { return diagnose.NewEvidenceViewTracker(diagnose.Options{}) }}
	nm, _ := New(tl, opts).Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	view := nm.(Model).View()
	if !strings.Contains(view, "100% GPU-Util but drawing little power") {
		t.Fatalf("the replay does not show the evidence finding:\n%s", view)
	}
}
