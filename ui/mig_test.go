package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/gpuscope/gpuscope/sampler"
)

// migFixtureGPU is the fixture GPU split by migEdit (GPU 6: idle otherwise).
const migFixtureGPU = 6

// migEdit makes GPU 6 a MIG-enabled H200 with 2× 3g.71gb instances: the
// first busy with two processes, the second with one, idle.
func migEdit(s *sampler.Snapshot) {
	const gib = 1 << 30
	g := &s.GPUs[migFixtureGPU]
	g.MIG = true
	g.Util, g.MemUtil = sampler.NA, sampler.NA
	g.NA = map[string]string{"fan": "not supported", "util": "not available with MIG enabled",
		"mem_util": "not available with MIG enabled", "proc_util": "not available with MIG enabled"}
	g.MemUsed = sampler.Some(52 * gib)
	proc := func(pid int, user, cmd string, mem float64) sampler.GPUProc {
		h := &sampler.Proc{PID: pid, PPID: 1, User: user, Name: "python", Cmdline: cmd, State: "R", CPU: sampler.Some(95)}
		if s.Host != nil {
			s.Host.Procs[pid] = h
		}
		return sampler.GPUProc{PID: pid, Type: "C", MemUsed: sampler.Some(mem), Host: h}
	}
	a := proc(8100, "frank", "python infer.py --shard 0", 30*gib)
	b := proc(8101, "frank", "python infer.py --shard 1", 12*gib)
	c := proc(8200, "grace", "python notebook.py", 9*gib)
	g.Procs = []sampler.GPUProc{a, b, c}
	g.MIGDevices = []sampler.MIGDevice{
		{Index: 0, GPUInstance: 1, UUID: "MIG-aaaaaaaa-0000-5000-9000-000000000001", Profile: "3g.71gb", SMSlices: 3,
			MemUsed: sampler.Some(42 * gib), MemTotal: sampler.Some(72704 << 20),
			SMActive: sampler.Some(81), TensorActive: sampler.Some(55), DRAMActive: sampler.Some(38), Procs: []sampler.GPUProc{a, b}},
		{Index: 1, GPUInstance: 2, UUID: "MIG-aaaaaaaa-0000-5000-9000-000000000002", Profile: "3g.71gb", SMSlices: 3,
			MemUsed: sampler.Some(9 * gib), MemTotal: sampler.Some(72704 << 20),
			SMActive: sampler.Some(2), TensorActive: sampler.Some(0), DRAMActive: sampler.Some(1), Procs: []sampler.GPUProc{c}},
	}
}

func TestGoldenMIG(t *testing.T) {
	for _, sz := range viewSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m := fixtureModelN(60, 8, sz.w, sz.h, migEdit)
			v := m.View()
			requireFits(t, v, sz.w, sz.h)
			if !strings.Contains(v, "MIG×2") {
				t.Errorf("no MIG×2 marker on GPU %d:\n%s", migFixtureGPU, v)
			}
			expanded := strings.Contains(v, "MIG 0 3g.71gb")
			if sz.w == 80 && (expanded || !strings.Contains(v, "MIG: util n/a")) {
				t.Errorf("80×24 with 8 GPUs: want the marker and the short note only:\n%s", v)
			}
			if sz.w == 200 {
				for _, want := range []string{"MIG 0 3g.71gb", "MIG 1 3g.71gb", "SM  81%", "2 procs", "1 proc", m.c.word("mig.note")[:40]} {
					if !strings.Contains(v, want) {
						t.Errorf("200×50 lacks %q:\n%s", want, v)
					}
				}
			}
			golden.RequireEqual(t, []byte(v))
		})
	}
}

// TestMIGNoRoomNoLines: without a MIG GPU the layout is what it was.
func TestMIGNoExtraRowsWithoutMIG(t *testing.T) {
	plain := ComputeLayout(200, 50, 8)
	if got := ComputeLayoutMIG(200, 50, 8, 0); got != plain {
		t.Errorf("ComputeLayoutMIG(…, 0) = %+v, want %+v", got, plain)
	}
	if got := ComputeLayoutMIG(200, 50, 8, 3); got.GPUs.H != plain.GPUs.H+3 {
		t.Errorf("200×50: GPU pane %d rows with 3 MIG rows, want %d", got.GPUs.H, plain.GPUs.H+3)
	}
	if got := ComputeLayoutMIG(80, 24, 8, 3); got.GPUs.H != ComputeLayout(80, 24, 8).GPUs.H {
		t.Errorf("80×24: MIG rows squeezed the other panes: %+v", got)
	}
}

func TestMIGDetailListsInstances(t *testing.T) {
	m := fixtureModelN(60, 8, 200, 50, migEdit)
	m = press(m, fmt.Sprint(migFixtureGPU+1))
	if !m.pages.isOpen(pageGPU) || m.gdetail.gpu != migFixtureGPU {
		t.Fatalf("key %d opened GPU %d, want %d", migFixtureGPU+1, m.gdetail.gpu, migFixtureGPU)
	}
	page := strings.Join(m.gdetail.content(), "\n")
	for _, want := range []string{"MIG instances on GPU 6", "MIG 0  3g.71gb  GI 1 / CI 0", "MIG 1  3g.71gb  GI 2",
		"MIG-aaaaaaaa-0000-5000-9000-000000000002", "8100", "8101", "python infer.py --shard 1", "8200", "python notebook.py", m.c.word("mig.note")} {
		if !strings.Contains(page, want) {
			t.Errorf("GPU detail lacks %q:\n%s", want, page)
		}
	}
	// A GPU without MIG has no instance section.
	m = press(m, "left")
	if page := strings.Join(m.gdetail.content(), "\n"); strings.Contains(page, "MIG instances") {
		t.Errorf("GPU %d (no MIG) shows a MIG section", m.gdetail.gpu)
	}
}

// TestMIGMouse: a click on an instance line selects its GPU, and GPUs below
// the instance lines are still hit by their own rows.
func TestMIGMouse(t *testing.T) {
	m := fixtureModelN(5, 8, 200, 50, migEdit)
	click := func(m Model, y int) Model {
		nm, _ := m.Update(tea.MouseMsg{X: 10, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
		return nm.(Model)
	}
	y0 := m.layout.GPUs.Y + 1 // GPU 0's first line; two lines per GPU at 200×50
	for _, tc := range []struct{ y, gpu int }{
		{y0 + 2*migFixtureGPU, migFixtureGPU},     // the MIG GPU's row
		{y0 + 2*migFixtureGPU + 3, migFixtureGPU}, // its second instance line
		{y0 + 2*migFixtureGPU + 4, 7},             // GPU 7, pushed down by 2 lines
		{y0 + 2*3, 3},                             // above the MIG GPU: unchanged
	} {
		m = click(m, tc.y)
		if m.gpus.cursor != tc.gpu {
			t.Errorf("click at y=%d: GPU %d, want %d", tc.y, m.gpus.cursor, tc.gpu)
		}
	}
}
