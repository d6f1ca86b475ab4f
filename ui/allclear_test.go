package ui

import (
	"strings"
	"testing"
)

// No finding over a few seconds of data is not an all-clear: the rules need
// 30 s or more before they can judge.
func TestAllClearWaitsForEnoughData(t *testing.T) {
	m, d := fixtureModel(5, 120, 40)
	d.findings = nil
	m = d.push(m, *m.c.latest())
	if v := m.View(); !strings.Contains(v, "collecting:") || strings.Contains(v, "no problem found") {
		t.Errorf("5 s of data read as all clear:\n%s", v)
	}
	m, d = fixtureModel(60, 120, 40)
	d.findings = nil
	m = d.push(m, *m.c.latest())
	if v := m.View(); !strings.Contains(v, "no problem found") {
		t.Errorf("60 s without findings should be an all-clear:\n%s", v)
	}
}
