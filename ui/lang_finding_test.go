package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// TestGoldenChineseFinding: the findings pane and a finding's page in
// Chinese, at both sizes: titles, evidence and labels in Chinese, the
// columns kept (CJK characters are two cells wide).
func TestGoldenChineseFinding(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, _ := fixtureModelWith(60, sz.w, sz.h, func(o *Options) { o.Tr = i18n.For("zh") })
			m = press(m, "tab", "enter")
			v := m.View()
			requireFits(t, v, sz.w, sz.h)
			plain := ansi.Strip(v)
			for _, want := range []string{"证据", "先试", "GPU 4 硬件降频"} {
				if !strings.Contains(plain, want) {
					t.Errorf("no %q on the Chinese finding page:\n%s", want, plain)
				}
			}
			golden.RequireEqual(t, []byte(v))
		})
	}
}
