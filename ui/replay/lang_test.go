package replay

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuscope/gpuscope/sampler/record/spool"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// The replay's own lines in Chinese (--lang zh): the warnings line, the
// loading percentage and the snapshot count on the timeline, and the line
// saying loading stopped; every line within the terminal.
func TestReplayChinese(t *testing.T) {
	g := &growing{Snapshots: long(t, 1), n: spool.BlockLen, p: spool.Progress{Fraction: 0.37}}
	opts := Options{UI: uiOptions(), Paused: true, Name: "r.jsonl", Warnings: []string{"r.jsonl: line 7: torn", "r.jsonl: line 9: skipped"}}
	opts.UI.Tr = i18n.For("zh")
	nm, _ := NewFrom(g, opts).Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m := nm.(Model)
	v := ansi.Strip(m.View())
	for _, want := range []string{"加载中 37%", "（快照 1/", "（另有 1 条：gpuscope report 会列出）", "按任意键隐藏"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q while loading:\n%s", want, v)
		}
	}
	g.n, g.p = 2*spool.BlockLen, spool.Progress{Fraction: 0.8, Done: true, Err: errors.New("r.jsonl: line 300: not a snapshot")}
	nm, _ = m.Update(loadTickMsg{})
	m = press(t, nm.(Model), "end")
	v = m.View()
	for _, want := range []string{"加载已停止：r.jsonl: line 300", "显示此前的", "结束"} {
		if !strings.Contains(ansi.Strip(v), want) {
			t.Errorf("no %q after loading stopped:\n%s", want, ansi.Strip(v))
		}
	}
	lines := strings.Split(v, "\n")
	if len(lines) != 24 {
		t.Fatalf("%d lines, want 24", len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line %d is %d cells wide: %q", i, w, ansi.Strip(l))
		}
	}
	golden.RequireEqual(t, []byte(v))
}
