package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/ui/i18n"
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

// The same two lines in Chinese, within the pane.
func TestAllClearChinese(t *testing.T) {
	zh := func(o *Options) { o.Tr = i18n.For("zh") }
	for _, c := range []struct {
		n    int
		want string
	}{{5, "正在收集：已有 5 s，20 条规则需要"}, {60, "已检查 20 条规则：未发现问题"}} {
		m, d := fixtureModelWith(c.n, 120, 40, zh)
		d.findings = nil
		m = d.push(m, *m.c.latest())
		v := m.View()
		requireFits(t, v, 120, 40)
		if !strings.Contains(ansi.Strip(v), c.want) {
			t.Errorf("%d s: no %q in\n%s", c.n, c.want, ansi.Strip(v))
		}
	}
}
