package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/gpuscope/gpuscope/diagnose"
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

// Every rule's first fix has its Chinese text, and a Chinese dashboard
// shows it in place of the English one.
func TestEveryFixTranslated(t *testing.T) {
	m, _ := fixtureModelWith(5, 120, 40, func(o *Options) { o.Lang = "zh" })
	keys := diagnose.HintKeys()
	if len(keys) < 20 {
		t.Fatalf("only %d fix keys", len(keys))
	}
	for _, k := range keys {
		if w := m.c.word("fix." + k); w == "fix."+k || !strings.ContainsFunc(w, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }) {
			t.Errorf("fix.%s has no Chinese text: %q", k, w)
		}
	}
	if got := m.c.fix("a log's own advice"); got != "a log's own advice" {
		t.Errorf("an unknown fix became %q", got)
	}
	en, _ := fixtureModelWith(5, 120, 40, nil)
	if got := en.c.fix("x"); got != "x" {
		t.Errorf("English changed a fix: %q", got)
	}
}
