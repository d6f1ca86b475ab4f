package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/muesli/termenv"
)

var viewSizes = []struct{ w, h int }{{80, 24}, {200, 50}}
var gpuCounts = []int{1, 8, 16}

// goldenViews checks one view at every size and GPU count: it fits, shows
// its marker, and matches its golden file.
func goldenViews(t *testing.T, keys []string, markers ...string) {
	for _, n := range gpuCounts {
		for _, sz := range viewSizes {
			t.Run(fmt.Sprintf("%dgpu_%dx%d", n, sz.w, sz.h), func(t *testing.T) {
				m := fixtureModelN(60, n, sz.w, sz.h, nil)
				v := press(m, keys...).View()
				requireFits(t, v, sz.w, sz.h)
				for _, want := range markers {
					if !strings.Contains(v, want) {
						t.Errorf("view lacks %q:\n%s", want, v)
					}
				}
				golden.RequireEqual(t, []byte(v))
			})
		}
	}
}

func TestGoldenGPUDetail(t *testing.T) {
	goldenViews(t, []string{"enter"}, "GPU detail", "GPU 0", "UUID", "GPU-Util")
}

func TestGoldenTopology(t *testing.T) {
	goldenViews(t, []string{"t"}, "Topology", "GPU0")
}

func TestGoldenMainN(t *testing.T) {
	goldenViews(t, nil, "GPUs")
}

func TestGoldenTree(t *testing.T) {
	goldenViews(t, []string{"T", "tab", "tab"}, "tree")
}

func TestGPUDetailSections(t *testing.T) {
	m := fixtureModelN(60, 8, 200, 50, nil)
	m = press(m, "5") // GPU 4: hot and throttled
	if !m.pages.isOpen(pageGPU) || m.gdetail.gpu != 4 {
		t.Fatalf("5 opened GPU %d (open %v), want GPU 4", m.gdetail.gpu, m.pages.isOpen(pageGPU))
	}
	page := strings.Join(m.gdetail.content(), "\n")
	for _, want := range []string{"hw thermal", "UUID GPU-00000004", "P-state P0", "Gen5/5 ×16/16", "18/18 active",
		"temperature", "slowdown 90°C", "PCIe", "link 63 GB/s each way", "NVLink", "Processes on GPU 4", "6100", "dave"} {
		if !strings.Contains(page, want) {
			t.Errorf("GPU 4 page lacks %q", want)
		}
	}
	// The thermal rows of the strip are active all along; power cap never.
	for _, l := range m.gdetail.clockStrip() {
		switch {
		case strings.Contains(l, "hw thermal") && !strings.Contains(l, "████"):
			t.Errorf("hw thermal not marked active: %q", l)
		case strings.Contains(l, "power cap") && strings.Contains(l, "█"):
			t.Errorf("power cap marked active: %q", l)
		}
	}
	m = press(m, "right")
	if m.gdetail.gpu != 5 {
		t.Errorf("→ went to GPU %d, want 5", m.gdetail.gpu)
	}
	if m = press(m, "esc"); m.pages.isOpen(pageGPU) || !strings.Contains(m.View(), "Why idle") {
		t.Error("esc did not return to the main screen")
	}
	if m = press(m, "9"); m.pages.isOpen(pageGPU) {
		t.Error("9 opened a GPU detail on an 8-GPU node (GPU 8 does not exist)")
	}
}

func TestGPUDetailSaysWhyNA(t *testing.T) {
	m := fixtureModelN(20, 1, 200, 50, func(s *sampler.Snapshot) {
		g := &s.GPUs[0]
		g.Arch, g.Name = "Ampere", "NVIDIA A100-SXM4-80GB"
		g.SMActive, g.SMOccupancy, g.TensorActive, g.DRAMActive = sampler.NA, sampler.NA, sampler.NA, sampler.NA
		g.NVLinkRx, g.NVLinkTx, g.NVLinks = sampler.NA, sampler.NA, nil
		g.Power = sampler.NA
		g.NA = map[string]string{"power": "no permission"}
	})
	page := strings.Join(press(m, "1").gdetail.content(), "\n")
	for _, want := range []string{"SM activity needs Hopper or newer (GPM)", "memory-controller util", "n/a: no permission", "no NVLink on this GPU"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
}

func TestTopologyHighlightsSlowJobPairs(t *testing.T) {
	torchrun := func(s *sampler.Snapshot) {
		s.Topology.Links = pcieTopology(len(s.GPUs))
		// One job: ranks on GPU 0 (PID 2100) and GPU 5 (PID 7100), both
		// children of torchrun 2000; GPU 0 ↔ 5 is SYS.
		s.Host.Procs[2000] = &sampler.Proc{PID: 2000, PPID: 1, User: "alice", Name: "torchrun"}
		s.Host.Procs[7100].PPID = 2000
	}
	m := fixtureModelN(3, 8, 200, 50, torchrun)
	pairs := diagnose.SlowPairs(m.c.latest())
	if len(pairs) != 1 || pairs[0].A != 0 || pairs[0].B != 5 || pairs[0].Link != "SYS" {
		t.Fatalf("slow pairs %+v, want GPU 0 ↔ 5 over SYS", pairs)
	}
	v := press(m, "t").View()
	for _, want := range []string{"SYS!", "GPU 0 ↔ GPU 5", "torchrun", "PIX", "PHB", "CPU affinity", "56-111,168-223"} {
		if !strings.Contains(v, want) {
			t.Errorf("topology lacks %q", want)
		}
	}
	golden.RequireEqual(t, []byte(v))
	// On the NV18 box the same job is fine.
	m = fixtureModelN(3, 8, 200, 50, func(s *sampler.Snapshot) {
		torchrun(s)
		s.Topology.Links = nvTopology(8)
	})
	if p := diagnose.SlowPairs(m.c.latest()); len(p) != 0 {
		t.Errorf("NV18 box has slow pairs %+v", p)
	}
	if m = press(m, "t", "esc"); m.pages.isOpen(pageTopology) {
		t.Error("esc did not close the topology")
	}
}

func TestBalanceSummary(t *testing.T) {
	mk := func(utils ...float64) []sampler.Snapshot {
		s := sampler.Snapshot{}
		for i, u := range utils {
			g := sampler.GPU{Index: i, Util: sampler.Some(u), MemUsed: sampler.Some(1), MemTotal: sampler.Some(10)}
			if u > 0 || i == 0 {
				g.Procs = []sampler.GPUProc{{PID: 100 + i}}
			}
			s.GPUs = append(s.GPUs, g)
		}
		return []sampler.Snapshot{s}
	}
	en, zh := &common{env: env{tr: i18n.For("en")}}, &common{env: env{tr: i18n.For("zh")}}
	for _, tt := range []struct {
		utils        []float64
		want, wantZh string
	}{
		{[]float64{97, 0, 0, 0, 0, 0, 0, 0}, "all jobs on GPU 0 · GPU 0 busy, 7 idle", "作业全在 GPU 0 上 · GPU 0 忙，7 张空闲"},
		{[]float64{90, 80, 10, 60}, "spread 80 pts (GPU 0 vs 2) · 3 busy, 0 idle", "相差 80 个百分点（GPU 0 对 GPU 2） · 3 张忙，0 张空闲"},
	} {
		if got, _ := balanceSummary(diagnose.NodeBalance(mk(tt.utils...)), en); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.utils, got, tt.want)
		}
		if got, _ := balanceSummary(diagnose.NodeBalance(mk(tt.utils...)), zh); got != tt.wantZh {
			t.Errorf("%v in Chinese: %q, want %q", tt.utils, got, tt.wantZh)
		}
	}
	if got := balanceInfo(en, mk(50), 80); got != "" {
		t.Errorf("one GPU shows a balance %q", got)
	}
	if got := balanceInfo(en, mk(make([]float64, 16)...), 200); !strings.Contains(got, strings.Repeat("▁", 16)) {
		t.Errorf("16 idle GPUs: %q", got)
	}
}

// BenchmarkGPUDetailPushView200x50 is a new snapshot and a redraw with the
// GPU detail open: eight ntcharts braille charts over 300 samples.
func BenchmarkGPUDetailPushView200x50(b *testing.B) {
	m := benchModel(b)
	m = press(m, "1")
	i := 0
	b.ResetTimer()
	for b.Loop() {
		m = push(m, fixtureSnapshotN(601+i, 8)) // time moves on from the history
		_ = m.View()
		i++
	}
}

// BenchmarkGPUDetailView200x50 is a repaint of the open GPU detail.
func BenchmarkGPUDetailView200x50(b *testing.B) {
	m := press(benchModel(b), "1")
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}

func TestNewViewsNeverOverflow(t *testing.T) {
	for _, n := range []int{1, 2, 4, 8, 16} {
		for _, w := range []int{40, 80, 120, 200} {
			for _, h := range []int{10, 24, 50} {
				m := fixtureModelN(20, n, w, h, nil)
				for _, keys := range [][]string{nil, {"1"}, {"t"}, {"t", "down", "down", "down"}, {"T", "tab", "tab"}, {"/", "a"}, {"1", "pgdown", "pgdown"}} {
					v := press(m, keys...).View()
					if len(strings.Split(v, "\n")) > h {
						t.Errorf("%d GPUs %dx%d after %v: %d lines", n, w, h, keys, len(strings.Split(v, "\n")))
					}
					requireFits(t, v, w, h)
				}
			}
		}
	}
}

// BenchmarkGPUDetailPushViewColor200x50 is the same with 24-bit colour on,
// as in a real terminal (escape codes per styled cell).
func BenchmarkGPUDetailPushViewColor200x50(b *testing.B) {
	m := benchModel(b)
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	st, err := themes.Build("dark", true)
	if err != nil {
		b.Fatal(err)
	}
	*m.c.st = st
	m = press(m, "1")
	i := 0
	b.ResetTimer()
	for b.Loop() {
		m = push(m, fixtureSnapshotN(601+i, 8))
		_ = m.View()
		i++
	}
}
