package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
)

// --bell rings once when a critical finding opens, not again while it
// stays open, and again for another one; warnings never ring.
func TestBellOnNewCritical(t *testing.T) {
	rings := 0
	m, _ := fixtureModelWith(2, 120, 40, func(o *Options) { o.Bell, o.Ring = true, func() { rings++ } })
	frame := func(i int, fs ...diagnose.Finding) {
		next, cmd := m.Update(frameMsg(diagnose.Frame{Snapshot: fixtureSnapshot(i), Diagnosis: &diagnose.Diagnosis{Findings: fs}}))
		m = next.(Model)
		run(cmd)
	}
	frame(99) // the fixture's own findings (a critical among them) ring first
	if rings != 1 {
		t.Fatalf("the fixture's critical rang %d times, want 1", rings)
	}
	rings = 0
	warn := diagnose.Finding{Rule: diagnose.RuleThermalThrottle, GPU: 1, Severity: diagnose.Warning}
	xid := diagnose.Finding{Rule: diagnose.RuleXidError, GPU: 0, Severity: diagnose.Critical}
	hot := diagnose.Finding{Rule: diagnose.RuleThermalThrottle, GPU: 1, Severity: diagnose.Critical}
	steps := []struct {
		fs   []diagnose.Finding
		want int
	}{
		{[]diagnose.Finding{warn}, 0},
		{[]diagnose.Finding{warn, xid}, 1},
		{[]diagnose.Finding{xid, warn}, 1}, // still open: no new ring
		{[]diagnose.Finding{xid, hot}, 2},  // the warning turned critical
		{nil, 2},
	}
	for i, s := range steps {
		frame(100+i, s.fs...)
		if rings != s.want {
			t.Fatalf("step %d: %d rings, want %d", i, rings, s.want)
		}
	}
}

// run executes a Cmd and the Cmds of a batch, as the program would.
func run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			run(c)
		}
	}
}
