package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui/uitest"
	"github.com/muesli/termenv"
)

func fmtInt(i int) string { return fmt.Sprint(i) }

// testStyles are the dark theme with colour forced off, so goldens are
// plain text on every machine.
func testStyles() themes.Styles {
	lipgloss.SetColorProfile(termenv.Ascii)
	st, err := themes.Build("dark", true)
	if err != nil {
		panic(err)
	}
	return st
}

// requireFits fails when any line is wider than w or there are more than h lines.
func requireFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("%d lines, terminal has %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Errorf("line %d is %d wide (> %d): %q", i, lw, w, l)
		}
	}
}

func press(m Model, keys ...string) Model { return uitest.Press(m, keys...) }

func TestGoldenMain(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := fixtureModel(90, sz.w, sz.h)
			v := m.View()
			requireFits(t, v, sz.w, sz.h)
			for _, want := range []string{"gpu-node-17", "DEMO mixed", "H200", "LOST", "THR", "thermal_throttle", "input_starved", "CPU"} {
				if !strings.Contains(v, want) {
					t.Errorf("view lacks %q", want)
				}
			}
			golden.RequireEqual(t, []byte(v))
		})
	}
}

func TestGoldenHelp(t *testing.T) {
	m, _ := fixtureModelWith(10, 120, 40, live)
	m = press(m, "?")
	v := m.View()
	requireFits(t, v, 120, 40)
	if !strings.Contains(v, "pause") {
		t.Error("help lacks the pause key")
	}
	golden.RequireEqual(t, []byte(v))
	if m = press(m, "?"); strings.Contains(m.View(), "reading the screen") {
		t.Error("? did not close the help")
	}
}

func TestGoldenDetail(t *testing.T) {
	m, _ := fixtureModel(60, 120, 40)
	m = press(m, "tab", "enter") // findings focused; the first is the critical thermal one
	v := m.View()
	requireFits(t, v, 120, 40)
	for _, want := range []string{"thermal_throttle", "CRITICAL", "Live numbers", "nvidia-smi dmon -s u -i 4", "py-spy dump --pid 6100"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q", want)
		}
	}
	golden.RequireEqual(t, []byte(v))
	if m = press(m, "esc"); strings.Contains(m.View(), "Live numbers") {
		t.Error("esc did not close the detail")
	}
}

func TestTooSmall(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{20, 5}, {1, 1}, {0, 0}, {39, 30}, {100, 9}} {
		m, _ := fixtureModel(5, sz.w, sz.h)
		v := m.View()
		requireFits(t, v, max(sz.w, 0), max(sz.h, 1))
		if sz.w >= 20 && !strings.Contains(strings.Join(strings.Fields(v), " "), "terminal too small") {
			t.Errorf("%dx%d: %q", sz.w, sz.h, v)
		}
		if sz.w == 20 {
			golden.RequireEqual(t, []byte(v))
		}
	}
}

func TestGoldenNoDriver(t *testing.T) {
	m, _ := fixtureModel(0, 100, 30)
	s := fixtureSnapshot(0)
	s.GPUs = nil
	s.Node.Driver, s.Node.CUDA = "", ""
	s.Node.GPUError = &sampler.SourceError{Tried: "libnvidia-ml.so.1", Err: "ERROR_LIBRARY_NOT_FOUND",
		Causes: []string{"no NVIDIA driver installed on this machine", "running in a container without --gpus"}}
	m = push(m, s)
	v := m.View()
	requireFits(t, v, 100, 30)
	for _, want := range []string{"libnvidia-ml.so.1", "ERROR_LIBRARY_NOT_FOUND", "without --gpus", "gpuscope --demo", "MEM"} {
		if !strings.Contains(v, want) {
			t.Errorf("no-driver view lacks %q", want)
		}
	}
	golden.RequireEqual(t, []byte(v))
}

func TestSizesNeverOverflow(t *testing.T) {
	for _, w := range []int{40, 60, 80, 100, 119, 120, 160, 200, 260} {
		for _, h := range []int{10, 15, 24, 40, 50} {
			m, _ := fixtureModel(30, w, h)
			requireFits(t, m.View(), w, h)
			requireFits(t, press(m, "?").View(), w, h)
			requireFits(t, press(m, "tab", "enter").View(), w, h)
		}
	}
}

func BenchmarkView200x50(b *testing.B) {
	m := benchModel(b)
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkPushView200x50 is a new snapshot and a full redraw (1 per tick).
func BenchmarkPushView200x50(b *testing.B) {
	m := benchModel(b)
	i := 0
	b.ResetTimer()
	for b.Loop() {
		m = push(m, fixtureSnapshot(i))
		_ = m.View()
		i++
	}
}

// benchModel: 8 GPUs, 100 processes, findings, 600 snapshots of history.
func benchModel(b *testing.B) Model {
	m, _ := fixtureModel(600, 200, 50)
	s := fixtureSnapshot(600)
	for i := 0; i < 100-len(s.GPUs[0].Procs); i++ {
		s.GPUs[i%7].Procs = append(s.GPUs[i%7].Procs, sampler.GPUProc{PID: 9000 + i, Type: "C", MemUsed: sampler.Some(float64(i) * 1e9), SMUtil: sampler.Some(5)})
	}
	return push(m, s)
}

// The playbook in the detail pane is rendered Markdown wrapped to the pane:
// no fences or backticks of the source (the plain style keeps the
// "#" of headings), and a paragraph joined and broken again to fit 50
// columns (before this the raw page kept its source line breaks).
func TestDetailRendersPlaybookToWidth(t *testing.T) {
	m, _ := fixtureModel(60, 50, 60)
	m = press(m, "tab", "enter")
	v := m.View()
	requireFits(t, v, 50, 60)
	for _, raw := range []string{"```", "`num_workers`", "```sh"} {
		if strings.Contains(v, raw) {
			t.Errorf("the page shows its Markdown source %q:\n%s", raw, v)
		}
	}
	for _, want := range []string{"What it means: the GPU waits", "wrapped to the pane.", "1. num_workers"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail at 50 columns lacks %q:\n%s", want, v)
		}
	}
}
