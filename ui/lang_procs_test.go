package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// cellOf is the terminal cell where sub starts in line (CJK characters
// take two cells), or -1.
func cellOf(line, sub string) int {
	i := strings.Index(line, sub)
	if i < 0 {
		return -1
	}
	return ansi.StringWidth(line[:i])
}

// lineWith is the first line of the plain screen v holding sub.
func lineWith(v, sub string) string {
	for _, l := range strings.Split(ansi.Strip(v), "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// The process table in Chinese: its headers and the sort name in the
// title are Chinese, each header sits where the English one does (the
// rows are the same, so the columns stay aligned), config.toml's sort key
// stays English, and the filter's messages are Chinese.
func TestChineseProcessPane(t *testing.T) {
	en, _ := fixtureModelWith(60, 200, 50, func(o *Options) { o.ProcSort = "rss" })
	zh, _ := fixtureModelWith(60, 200, 50, func(o *Options) { o.Tr, o.ProcSort = i18n.For("zh"), "rss" })
	if got := zh.procs.cols[zh.procs.sortBy].name; got != "RSS" {
		t.Fatalf("sort = \"rss\" in Chinese opened sorted by %q", got)
	}
	ev, zv := en.View(), zh.View()
	if l := lineWith(zv, "─ 进程"); !strings.Contains(l, "按 内存 ▼ 排序") {
		t.Errorf("the title does not name the sort column in Chinese: %q", l)
	}
	eh, zhh := lineWith(ev, "COMMAND"), lineWith(zv, "命令")
	if zhh == "" || strings.Contains(zhh, "USER") {
		t.Fatalf("no Chinese header:\n%s", ansi.Strip(zv))
	}
	// Right-aligned headers end where the English ones end, left-aligned
	// ones start where they start.
	for _, c := range []struct {
		en, zh string
		right  bool
	}{{"PID", "PID", true}, {"USER", "用户", false}, {"GPU-MEM", "显存", true}, {"RSS▼", "内存▼", true},
		{"TIME", "时长", true}, {"CONTAINER", "容器", false}, {"COMMAND", "命令", false}} {
		e, z := cellOf(eh, c.en), cellOf(zhh, c.zh)
		if c.right {
			e, z = e+ansi.StringWidth(c.en), z+ansi.StringWidth(c.zh)
		}
		if e < 0 || z < 0 || e != z {
			t.Errorf("%s sits at cell %d, %s at %d:\n%s\n%s", c.zh, z, c.en, e, eh, zhh)
		}
	}
	zh = press(zh, "/", "n", "o", "b", "o", "d", "y", "enter")
	if v := ansi.Strip(zh.View()); !strings.Contains(v, "没有符合过滤条件的进程") || !strings.Contains(v, "过滤：") {
		t.Errorf("the filter's messages are not Chinese:\n%s", v)
	}
}
