package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// A hidden pane's rows go to the others: the processes take the findings'
// rows, the findings the processes', and with both hidden the GPU pane
// takes the body. Every row of the body stays used.
func TestLayoutHiddenPanes(t *testing.T) {
	for _, tt := range []struct {
		w, h                    int
		hide                    Hidden
		gpus, find, procs, host int
	}{
		{80, 24, Hidden{}, 9, 5, 6, 2},
		{80, 24, Hidden{Procs: true}, 9, 11, 0, 2},
		{80, 24, Hidden{Host: true}, 9, 6, 7, 0},
		{80, 24, Hidden{Findings: true}, 9, 0, 11, 2},
		{80, 24, Hidden{Findings: true, Procs: true}, 20, 0, 0, 2},
		{80, 24, Hidden{Findings: true, Procs: true, Host: true}, 22, 0, 0, 0},
		{200, 50, Hidden{}, 17, 14, 14, 3},
		{200, 50, Hidden{Procs: true}, 17, 28, 0, 3},
		{200, 50, Hidden{Host: true}, 17, 15, 16, 0},
		{200, 50, Hidden{Findings: true}, 17, 0, 28, 3},
		{200, 50, Hidden{Findings: true, Procs: true, Host: true}, 48, 0, 0, 0},
	} {
		l := ComputeLayoutHidden(tt.w, tt.h, 8, 0, tt.hide)
		if l.GPUs.H != tt.gpus || l.Findings.H != tt.find || l.Procs.H != tt.procs || l.Host.H != tt.host {
			t.Errorf("%d×%d %+v: gpus %d findings %d procs %d host %d, want %d %d %d %d", tt.w, tt.h, tt.hide,
				l.GPUs.H, l.Findings.H, l.Procs.H, l.Host.H, tt.gpus, tt.find, tt.procs, tt.host)
		}
		if sum := l.GPUs.H + l.Findings.H + l.Procs.H + l.Host.H; sum != tt.h-2 {
			t.Errorf("%d×%d %+v: panes take %d rows of %d", tt.w, tt.h, tt.hide, sum, tt.h-2)
		}
		if tt.hide.Findings && !l.Side.Empty() {
			t.Errorf("%d×%d: the side pane is drawn with the findings hidden", tt.w, tt.h)
		}
	}
	// The findings' rows let the GPUs have their two-line sparkline rows.
	if ComputeLayout(120, 30, 8).GPULines != 1 || ComputeLayoutHidden(120, 30, 8, 0, Hidden{Findings: true}).GPULines != 2 {
		t.Error("hiding the findings at 120×30 does not give the GPUs two lines each")
	}
}

// P hides the process pane and shows it again; a focus it held goes to the
// GPUs, tab skips it, a click where it was never focuses it, and the footer
// says how to get it back.
func TestTogglePaneKeys(t *testing.T) {
	m, _ := fixtureModel(5, 80, 24)
	m = press(m, "tab", "tab")
	if m.c.focus != focusProcs {
		t.Fatalf("focus %d, want the processes", m.c.focus)
	}
	y := m.layout.Procs.Y + 3
	m = press(m, "P")
	if !m.layout.Procs.Empty() || m.c.focus != focusGPUs {
		t.Fatalf("after P: procs %+v focus %d", m.layout.Procs, m.c.focus)
	}
	if v := ansi.Strip(m.View()); strings.Contains(v, "─ Processes") || !strings.Contains(v, "P shows it again") {
		t.Errorf("after P the screen still shows the processes or not how to get them back:\n%s", v)
	}
	requireFits(t, m.View(), 80, 24)
	for range 3 {
		if m = press(m, "tab"); m.c.focus == focusProcs {
			t.Error("tab reached the hidden process pane")
		}
	}
	m = m.handleMouse(tea.MouseMsg{X: 5, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if m.c.focus == focusProcs {
		t.Error("a click focused the hidden process pane")
	}
	m2 := press(m, "P")
	if m2.layout.Procs.H != 6 {
		t.Errorf("P again: procs %+v, want 6 rows back", m2.layout.Procs)
	}
	m2 = press(m2, "F", "H")
	if !m2.layout.Findings.Empty() || !m2.layout.Host.Empty() || m2.layout.Procs.H != 20-m2.layout.GPUs.H+2 {
		t.Errorf("F H: %+v", m2.layout)
	}
	requireFits(t, m2.View(), 80, 24)
}

// config.toml's hide and compute_only apply at start; c shows graphics-only
// processes again, and the title says which view is on.
func TestHideAndComputeOnlyOptions(t *testing.T) {
	m, _ := fixtureModelWith(5, 200, 50, func(o *Options) { o.Hide, o.ComputeOnly = []string{"host", "findings"}, true })
	if !m.layout.Host.Empty() || !m.layout.Findings.Empty() || m.layout.Procs.Empty() {
		t.Fatalf("hide = [host, findings]: %+v", m.layout)
	}
	s := m.c.latest()
	s.GPUs[0].Procs[0].Type = "G"
	m.procs.collect()
	for _, r := range m.procs.rows {
		if r.p.Type == "G" {
			t.Errorf("compute only shows graphics-only PID %d", r.p.PID)
		}
	}
	m.procs.invalidate()
	if v := ansi.Strip(m.View()); !strings.Contains(v, "· compute only") {
		t.Errorf("the title does not say compute only:\n%s", v)
	}
	n := len(m.procs.rows)
	m = press(m, "c")
	if m.procs.collect(); len(m.procs.rows) != n+1 || strings.Contains(ansi.Strip(m.View()), "compute only") {
		t.Errorf("c: %d rows, want %d with the graphics one back", len(m.procs.rows), n+1)
	}
}

// The help lists the new keys, the defaults stay free of clashes, and a
// remap that gives P two meanings is refused.
func TestPaneKeysInHelpAndClash(t *testing.T) {
	var km = defaultKeyMap()
	rows := km.helpRows(offered{})
	var found int
	for _, r := range rows {
		if r[0] == "F / H / P" || r[0] == "c" {
			found++
		}
	}
	if found != 2 {
		t.Errorf("help rows lack F / H / P or c: %v", rows)
	}
	if err := CheckKeys(map[string][]string{"toggle_procs": {"s"}}); err == nil || !strings.Contains(err.Error(), "keys.toggle_procs") {
		t.Errorf("toggle_procs on s: %v", err)
	}
	if err := CheckKeys(map[string][]string{"toggle_procs": {"p"}, "compute_only": {"C"}}); err != nil {
		t.Error(err)
	}
}
