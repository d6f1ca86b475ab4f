package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// The dashboard in Chinese: pane titles, key hints and the help overlay,
// with every line still within the terminal (CJK characters take two
// cells) at 80×24 and 200×50.
func TestGoldenChinese(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {200, 50}} {
		for _, help := range []bool{false, true} {
			name := fmt.Sprintf("%dx%d", sz.w, sz.h)
			if help {
				name += "_help"
			}
			t.Run(name, func(t *testing.T) {
				m, _ := fixtureModelWith(60, sz.w, sz.h, func(o *Options) { o.Lang = "zh" })
				if help {
					m = press(m, "?")
				}
				v := m.View()
				requireFits(t, v, sz.w, sz.h)
				plain := ansi.Strip(v)
				want := []string{"为何空闲", "切换"}
				if help {
					want = []string{"按键", "切换焦点"}
				}
				for _, w := range want {
					if !strings.Contains(plain, w) {
						t.Errorf("no %q in the Chinese screen:\n%s", w, plain)
					}
				}
				golden.RequireEqual(t, []byte(v))
			})
		}
	}
}

// A locale spelled the way LANG spells it chooses Chinese too, and an
// unknown language is English.
func TestLangOption(t *testing.T) {
	for lang, want := range map[string]string{"zh_CN.UTF-8": "进程", "": "Processes", "fr": "Processes"} {
		m, _ := fixtureModelWith(5, 120, 40, func(o *Options) { o.Lang = lang })
		if got := m.c.word("pane.processes"); got != want {
			t.Errorf("Lang %q: %q, want %q", lang, got, want)
		}
	}
}
