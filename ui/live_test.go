package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/sampler/node"
)

// liveDemo drives the dashboard as main does: the demo node through the
// collector, every frame pushed, for dur of simulated time at interval.
func liveDemo(t *testing.T, scenario string, interval, dur time.Duration) Model {
	t.Helper()
	start := time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)
	d, err := node.NewDemo(scenario, 1, start)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Sampler(scenario)
	s.SetInterval(interval)
	col := pipeline.New(s, pipeline.Options{})
	m := New(DefaultOptions(testStyles(), "DEMO", interval)).resize(200, 50)
	for at := start; at.Before(start.Add(dur)); at = at.Add(interval) {
		m = m.Push(col.Push(s.Tick(at)))
	}
	return m
}

// The bug this collector fixed: the dashboard diagnosed over its own ring of
// 300 snapshots, 75 s at 250 ms, so memory_idle_held (90 s) never appeared
// live while a recording of the same run reported it.
func TestLiveDiagnosisWindowIsTimeAt250ms(t *testing.T) {
	m := liveDemo(t, "memory_idle_held", 250*time.Millisecond, 3*time.Minute)
	found := false
	for _, f := range m.c.findings {
		found = found || f.Rule == diagnose.RuleMemoryIdleHeld
	}
	if !found || !strings.Contains(m.View(), "memory_idle_held") {
		t.Errorf("memory_idle_held not shown at --interval 250ms; findings %v", m.c.findings)
	}
}

// At 100 ms the ring held 30 s, and the checklist never got the 60 s it
// asks for before judging.
func TestLiveChecklistGetsItsMinuteAt100ms(t *testing.T) {
	m := liveDemo(t, "healthy", 100*time.Millisecond, 2*time.Minute)
	if len(m.c.steps) == 0 {
		t.Fatal("no checklist")
	}
	for _, st := range m.c.steps {
		if strings.Contains(st.Detail, "watch at least 60 s") {
			t.Errorf("checklist at 100 ms still waiting: %s", st.Detail)
		}
	}
}

// A snapshot that brings no new diagnosis (at 100 ms, nine in ten) leaves
// the findings and side panes' renderings as they were; the GPU pane redraws.
func TestPanesRedrawOnlyWhatChanged(t *testing.T) {
	m, d := fixtureModel(10, 200, 50)
	_ = m.View()
	f := d.frame(m, fixtureSnapshot(10))
	m = m.Push(f)
	_ = m.View()
	same := diagnose.Frame{Snapshot: fixtureSnapshot(11), Diagnosis: f.Diagnosis}
	m = m.Push(same)
	if !m.findings.valid || !m.side.valid {
		t.Error("findings or side pane invalidated without a new diagnosis")
	}
	if m.gpus.valid {
		t.Error("GPU pane not redrawn on new data")
	}
	m = m.Push(d.frame(m, fixtureSnapshot(12)))
	if m.findings.valid || m.side.valid {
		t.Error("a new diagnosis did not redraw the findings and side panes")
	}
}
