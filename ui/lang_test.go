package ui

import (
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// The dashboard in Chinese: every page (main screen, help, GPU detail,
// topology, process view, MIG instances), with every line still within
// the terminal (CJK characters take two cells) at 80×24 and 200×50.
func TestGoldenChinese(t *testing.T) {
	zh := func(o *Options) { o.Tr = i18n.For("zh") }
	pages := []struct {
		suffix string
		model  func(w, h int) Model
		want   []string
	}{
		{"", func(w, h int) Model { m, _ := fixtureModelWith(60, w, h, zh); return m }, []string{"为何空闲", "切换", "显存", "负载"}},
		{"_help", func(w, h int) Model {
			m, _ := fixtureModelWith(60, w, h, func(o *Options) { zh(o); live(o) })
			return press(m, "?")
		}, []string{"按键", "切换焦点"}},
		{"_gpu", func(w, h int) Model { m, _ := fixtureModelWith(60, w, h, zh); return press(m, "enter") },
			[]string{"GPU 详情", "时钟事件原因", "总线"}},
		{"_topology", func(w, h int) Model { return press(fixtureModelNWith(60, 8, w, h, nil, zh), "t") }, []string{"拓扑", "图例", "亲和性"}},
		{"_process", func(w, h int) Model {
			m, _ := fixtureModelWith(60, w, h, zh)
			return press(m, "tab", "tab", "down", "enter")
		}, []string{"进程详情", "用户"}},
		{"_mig", func(w, h int) Model { return fixtureModelNWith(60, 8, w, h, migEdit, zh) }, []string{"MIG×2"}},
		{"_signal", func(w, h int) Model {
			m := signalModel(t, 999997, "mallory", func(o *Options) {
				zh(o)
				o.Root, o.Kill = true, func(int, syscall.Signal) error { return nil }
			})
			return press(m, "k").resize(w, h)
		}, []string{"发送 SIGTERM？", "用户 mallory", "其他任意键"}},
		{"_refused", func(w, h int) Model {
			return press(signalModel(t, 1, "root", zh), "K").resize(w, h)
		}, []string{"已拒绝：PID 1 是 init 进程"}},
	}
	for _, sz := range []struct{ w, h int }{{80, 24}, {200, 50}} {
		for _, pg := range pages {
			t.Run(fmt.Sprintf("%dx%d%s", sz.w, sz.h, pg.suffix), func(t *testing.T) {
				v := pg.model(sz.w, sz.h).View()
				requireFits(t, v, sz.w, sz.h)
				plain := ansi.Strip(v)
				for _, w := range pg.want {
					if !strings.Contains(plain, w) {
						t.Errorf("no %q in the Chinese screen:\n%s", w, plain)
					}
				}
				golden.RequireEqual(t, []byte(v))
			})
		}
	}
}

// The too-small screen in Chinese: wrapped by display width, never wider
// than the terminal.
func TestTooSmallChinese(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{20, 5}, {39, 30}, {1, 1}} {
		m, _ := fixtureModelWith(5, sz.w, sz.h, func(o *Options) { o.Tr = i18n.For("zh") })
		v := m.View()
		requireFits(t, v, sz.w, sz.h)
		if sz.w >= 20 && !strings.Contains(strings.Join(strings.Fields(v), ""), "终端太小") {
			t.Errorf("%dx%d: %q", sz.w, sz.h, v)
		}
		if sz.w == 20 {
			golden.RequireEqual(t, []byte(v))
		}
	}
}

// The no-driver panel in Chinese: its labels aligned (both six cells), the
// driver's own words kept.
func TestGoldenNoDriverChinese(t *testing.T) {
	m, _ := fixtureModelWith(0, 100, 30, func(o *Options) { o.Tr = i18n.For("zh") })
	s := fixtureSnapshot(0)
	s.GPUs = nil
	s.Node.Driver, s.Node.CUDA = "", ""
	s.Node.GPUError = &sampler.SourceError{Tried: "libnvidia-ml.so.1", Err: "ERROR_LIBRARY_NOT_FOUND",
		Causes:    []string{"no NVIDIA driver installed on this machine (seen: no /proc/driver/nvidia)", "running in a container without --gpus"},
		CauseKeys: []string{"driver", "container"}, CauseSeen: []string{" (seen: no /proc/driver/nvidia)", ""}}
	m = push(m, s)
	v := m.View()
	requireFits(t, v, 100, 30)
	for _, want := range []string{"无法读取 GPU", "  尝试：  libnvidia-ml.so.1", "  错误：  ERROR_LIBRARY_NOT_FOUND", "可能的原因", "运行 `gpuscope --demo` 查看模拟节点",
		"没有安装 NVIDIA 驱动", "容器启动时没有分配 GPU"} {
		if !strings.Contains(ansi.Strip(v), want) {
			t.Errorf("no-driver view lacks %q", want)
		}
	}
	golden.RequireEqual(t, []byte(v))
}

// A locale spelled the way LANG spells it chooses Chinese too, and an
// unknown language is English.
func TestLangOption(t *testing.T) {
	for lang, want := range map[string]string{"zh_CN.UTF-8": "进程", "": "Processes", "fr": "Processes"} {
		m, _ := fixtureModelWith(5, 120, 40, func(o *Options) { o.Tr = i18n.For(lang) })
		if got := m.c.word("pane.processes"); got != want {
			t.Errorf("Lang %q: %q, want %q", lang, got, want)
		}
	}
}

// Every rule's first fix has its Chinese text, and a Chinese dashboard
// shows it in place of the English one.
func TestEveryFixTranslated(t *testing.T) {
	m, _ := fixtureModelWith(5, 120, 40, func(o *Options) { o.Tr = i18n.For("zh") })
	keys := diagnose.FixIDs()
	if len(keys) < 20 {
		t.Fatalf("only %d fix keys", len(keys))
	}
	for _, k := range keys {
		if w := m.c.word("fix." + k); w == "fix."+k || !strings.ContainsFunc(w, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }) {
			t.Errorf("fix.%s has no Chinese text: %q", k, w)
		}
	}
	if got := m.c.fix(diagnose.Finding{Hint: "a log's own advice"}); got != "a log's own advice" {
		t.Errorf("an unknown fix became %q", got)
	}
	en, _ := fixtureModelWith(5, 120, 40, nil)
	if got := en.c.fix(diagnose.Finding{Hint: "x", FixID: "sync"}); got != "x" {
		t.Errorf("English changed a fix: %q", got)
	}
}
