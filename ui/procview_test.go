package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// enter on a process row opens its page; esc returns to the panes.
func TestProcViewOpensOnEnter(t *testing.T) {
	m, _ := fixtureModel(60, 200, 50)
	m = press(m, "tab", "tab") // GPUs → findings → processes
	r, ok := m.procs.selected()
	if !ok {
		t.Fatal("no process selected")
	}
	m = press(m, "enter")
	if !m.pages.isOpen(pageProc) || m.pview.pid != r.pid() {
		t.Fatalf("enter on PID %d: open %v pid %d", r.pid(), m.pages.isOpen(pageProc), m.pview.pid)
	}
	v := ansi.Strip(m.View())
	for _, want := range []string{fmt.Sprintf("Process · PID %d", r.pid()), "Findings naming it", "Over time", "GPU memory", "CPU", "RSS", "command"} {
		if !strings.Contains(v, want) {
			t.Errorf("process page lacks %q:\n%s", want, v)
		}
	}
	if m = press(m, "esc"); m.pages.isOpen(pageProc) || !strings.Contains(ansi.Strip(m.View()), "Processes") {
		t.Error("esc did not return to the panes")
	}
}

// The page of a process with DataLoader workers charts the workers' CPU
// beside its own and lists them; a pod's process names its pod.
func TestProcViewWorkersAndPod(t *testing.T) {
	m, _ := fixtureModel(60, 200, 50)
	m.pview.show(2100)
	m.pview.SetSize(200, 120) // the whole page, unscrolled
	v := ansi.Strip(m.pview.View())
	for _, want := range []string{"Children (8)", "2101", "━ own", "━ workers", "GPU 0 (C, 111G", "python train.py --rank 0"} {
		if !strings.Contains(v, want) {
			t.Errorf("PID 2100's page lacks %q:\n%s", want, v)
		}
	}
	m.pview.show(5100)
	v = ansi.Strip(m.pview.View())
	for _, want := range []string{"inference/vllm-70b-6d8f9c7b5d-x2k4q, container vllm", "pod UID   6b1b4a2e-7c3d-4e5f-8a9b-0c1d2e3f4a5b", "container 3f9a1c2b7d4e"} {
		if !strings.Contains(v, want) {
			t.Errorf("PID 5100's page lacks %q:\n%s", want, v)
		}
	}
	m.pview.show(6100) // the thermal finding names PID 6100
	if v = ansi.Strip(m.pview.View()); !strings.Contains(v, "thermal_throttle") {
		t.Errorf("PID 6100's page does not list the finding naming it:\n%s", v)
	}
	m.pview.show(99999)
	if v = ansi.Strip(m.pview.View()); !strings.Contains(v, "PID 99999 not in the newest snapshot") {
		t.Errorf("an unknown PID's page:\n%s", v)
	}
}

func TestGoldenProcView(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := fixtureModel(60, sz.w, sz.h)
			m = press(m, "tab", "tab", "down", "enter")
			if !m.pages.isOpen(pageProc) {
				t.Fatal("enter did not open the process page")
			}
			v := m.View()
			requireFits(t, v, sz.w, sz.h)
			golden.RequireEqual(t, []byte(v))
		})
	}
}
