package ui

import (
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
)

// Drawing never moves a cursor: the Model clamps cursors when the data
// changes (a GPU gone, fewer findings), and View only reads them.
func TestDrawingNeverMovesACursor(t *testing.T) {
	m, _ := fixtureModel(5, 120, 40)
	m = press(m, "down", "down", "down")
	last := m.gpus.cursor
	if last == 0 {
		t.Fatal("down did not move the GPU cursor")
	}
	m.gpus.cursor, m.findings.cursor = 99, 99 // as a stale cursor would be
	m.invalidateAll()
	_ = m.View()
	if m.gpus.cursor != 99 || m.findings.cursor != 99 {
		t.Fatalf("View moved the cursors to %d, %d", m.gpus.cursor, m.findings.cursor)
	}
	s := fixtureSnapshot(6)
	s.GPUs = s.GPUs[:2]
	m = m.Push(diagnose.Frame{Snapshot: s})
	if m.gpus.cursor != 1 || m.findings.cursor != 0 {
		t.Errorf("after a frame with 2 GPUs and no findings: cursors %d, %d; want 1, 0", m.gpus.cursor, m.findings.cursor)
	}
}
