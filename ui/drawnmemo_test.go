package ui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui/i18n"
	"github.com/muesli/termenv"
)

// TestRedrawnPartsDrawAsAfresh: the sparklines, titles and footer hints
// reused between frames (drawnSpark, drawnTitle, drawnHints), and the
// header kept while its second and node are the same, draw what they draw
// afresh, frame after frame at 100 ms, in the wide and compact
// GPU rows, with the selection and focus moving.
func TestRedrawnPartsDrawAsAfresh(t *testing.T) {
	for _, size := range [][2]int{{200, 50}, {100, 30}} {
		m := fixtureModelN(30, 8, size[0], size[1], nil)
		base := *m.c.latest()
		for i := range 40 {
			s := base
			s.Time = base.Time.Add(time.Duration(i+1) * 100 * time.Millisecond)
			s.GPUs = append([]sampler.GPU(nil), base.GPUs...)
			for g := range s.GPUs {
				s.GPUs[g].Util = sampler.Some(float64((i*7 + g*13) % 101))
				s.GPUs[g].MemUsed = sampler.Some(s.GPUs[g].MemTotal.V * float64((i+g)%10) / 10)
			}
			if i >= 30 {
				s.Node.Hostname = "node-b" // the header's line changes within a second
			}
			m = push(m, s)
			switch i {
			case 10:
				m.gpus.move(1)
			case 20:
				m.c.focus = focusProcs
				m.invalidateAll()
			case 25: // the process pane's title says the sort
				m.procs.sortBy = (m.procs.sortBy + 1) % len(m.procs.cols)
				m.invalidateAll()
			case 28:
				m.procs.reverse = !m.procs.reverse
				m.invalidateAll()
			}
			got := m.View()
			m.gpus.sparks, m.gpus.drawn, m.procs.drawn, m.c.hintsDrawn = nil, drawnTitle{}, drawnTitle{}, nil
			m.c.gpuCountSaid.text = ""
			m.c.balanceSaid.full = ""
			m.procs.said = procInfoSaid{}
			m.c.sideBySide = drawnJoin{}
			m.invalidateAll()
			if want := m.View(); got != want {
				t.Fatalf("%dx%d, frame %d: reused parts draw\n%s\nwhere drawn afresh\n%s", size[0], size[1], i, got, want)
			}
		}
		if !strings.Contains(m.View(), "node-b") {
			t.Fatalf("%dx%d: the header kept the old host name", size[0], size[1])
		}
		if len(m.gpus.sparks) == 0 || m.c.hintsDrawn == nil || m.gpus.drawn.out == "" {
			t.Fatalf("%dx%d: nothing kept to reuse", size[0], size[1])
		}
	}
}

// TestDrawnSparkReusedOnlyForTheSameBars: a sparkline's styled drawing is
// reused for the same bars and drawn again when a bar changes.
func TestDrawnSparkReusedOnlyForTheSameBars(t *testing.T) {
	st := testStyles()
	var d drawnSpark
	a := d.draw([]float64{10, 50, 90}, 5, 100, &st.Accent)
	if b := d.draw([]float64{11, 51, 91}, 5, 100, &st.Accent); b != a { // the same eighths
		t.Fatalf("the same bars drew %q, then %q", a, b)
	}
	if b, want := d.draw([]float64{10, 50, 20}, 5, 100, &st.Accent), drawSparkline([]float64{10, 50, 20}, 5, 100, st.Accent); b != want {
		t.Fatalf("a changed bar drew %q, want %q", b, want)
	}
	if got := d.draw(nil, 0, 100, &st.Accent); got != "" {
		t.Fatalf("no room drew %q", got)
	}
}

// TestBalanceSumsAreNodeBalance: the node balance drawn from sums kept
// across frames equals diagnose.NodeBalance of each frame's window, at
// 100 ms through a window that slides, and when the GPUs change.
func TestBalanceSumsAreNodeBalance(t *testing.T) {
	h := newHistory(0, 0)
	var b balanceSums
	t0 := time.Date(2026, 12, 7, 6, 0, 0, 0, time.UTC)
	for i := range 1800 { // three minutes: the 120 s window slides
		n := 8
		if i >= 1500 {
			n = 4 // GPUs lost from the snapshot
		}
		s := sampler.Snapshot{Time: t0.Add(time.Duration(i) * 100 * time.Millisecond), Seq: uint64(i), GPUs: make([]sampler.GPU, n)}
		for g := range s.GPUs {
			s.GPUs[g].Util = sampler.Some(float64((i*7+g*13)%1000) / 10)
			if g == 3 && i%5 == 0 {
				s.GPUs[g].Util = sampler.NA
			}
			s.GPUs[g].MemUsed, s.GPUs[g].MemTotal = sampler.Some(float64(i%50)), sampler.Some(100)
		}
		h.push(s)
		w := h.since(defaultWindow)
		if got, want := b.of(w), diagnose.NodeBalance(w); !reflect.DeepEqual(got, want) {
			t.Fatalf("snapshot %d: kept sums give %+v, NodeBalance %+v", i, got, want)
		}
	}
}

// TestLineStyleIsRender: a style's line drawn as its two sequences equals
// its Render, for every style of every theme under every colour profile,
// and styles that pad, size, underline or transform fall back to Render.
func TestLineStyleIsRender(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	lines := []string{"› 0 H200   45% ▂▃▅▆█ 80.1/141 GB", "x", " lead and trail ", "中文 ✖ ▸", "a\x1b[31mred\x1b[0m b", "tab\there", "two\nlines"}
	extra := []lipgloss.Style{lipgloss.NewStyle().Padding(0, 1), lipgloss.NewStyle().Width(50), lipgloss.NewStyle().Underline(true),
		lipgloss.NewStyle().Strikethrough(true).Bold(true), lipgloss.NewStyle().Transform(strings.ToUpper), lipgloss.NewStyle().MarginLeft(2),
		lipgloss.NewStyle().SetString("pre"), lipgloss.NewStyle().Border(lipgloss.NormalBorder()), lipgloss.NewStyle(),
		lipgloss.NewStyle().Height(3), lipgloss.NewStyle().MaxHeight(1).Bold(true), lipgloss.NewStyle().Reverse(true).Padding(1, 2).Margin(1, 1),
		lipgloss.NewStyle().Align(lipgloss.Center).Italic(true), lipgloss.NewStyle().MaxWidth(6), lipgloss.NewStyle().Inline(true).Faint(true)}
	fast := 0
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI, termenv.ANSI256, termenv.TrueColor} {
		lipgloss.SetColorProfile(p)
		for _, name := range themes.Names() {
			st, err := themes.Build(name, true)
			if err != nil {
				t.Fatal(err)
			}
			v := reflect.ValueOf(st)
			styles := append([]lipgloss.Style(nil), extra...)
			for i := range v.NumField() {
				if s, ok := v.Field(i).Interface().(lipgloss.Style); ok {
					styles = append(styles, s)
				}
			}
			for si, s := range styles {
				l := newLineStyle(s)
				if l.ok {
					fast++
				}
				for _, line := range lines {
					if got, want := l.render(s, line), s.Render(line); got != want {
						t.Fatalf("profile %v, theme %s, style %d: %q drawn %q, Render %q", p, name, si, line, got, want)
					}
				}
			}
			if p != termenv.Ascii && !newLineStyle(st.Selected).ok {
				t.Fatalf("profile %v, theme %s: the selected row's style is not drawn as sequences", p, name)
			}
		}
	}
	if fast == 0 {
		t.Fatal("no style drawn as sequences")
	}
}

// TestGPUCountSaidForTheCountInForce: the kept GPU count follows the count.
func TestGPUCountSaidForTheCountInForce(t *testing.T) {
	c := fixtureModelN(1, 8, 200, 50, nil).c
	for _, n := range []int{8, 8, 4, 1, 0, 8} {
		want := c.word("gpus.none")
		if n > 0 {
			want = c.count("gpus.count", n)
		}
		if got := c.gpuCountText(n); got != want {
			t.Fatalf("%d GPUs said %q, want %q", n, got, want)
		}
	}
}

// TestBalanceSaidForTheVerdictInForce: the balance's kept words follow its
// verdict, through busy and idle counts, spreads, one busy GPU and every
// job on one GPU, in English and Chinese: each the words said afresh.
func TestBalanceSaidForTheVerdictInForce(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		c := fixtureModelN(1, 8, 200, 50, nil).c
		c.tr = i18n.OrEnglish(i18n.For(lang))
		kept := 0
		for i := range 300 {
			b := diagnose.Balance{Busy: make([]float64, 8), Mem: make([]float64, 8), HasJob: make([]bool, 8)}
			for g := range b.Busy {
				b.Busy[g] = float64((i/7*31 + g*g*17) % 101)
				b.HasJob[g] = (i/11+g)%3 != 0
			}
			switch i % 40 {
			case 5: // one job
				clear(b.HasJob)
				b.HasJob[i%8] = true
			case 9: // one busy GPU
				clear(b.Busy)
				b.Busy[3] = 99
			}
			before := c.balanceSaid.v
			full, short := balanceSummary(b, c)
			if c.balanceSaid.v == before {
				kept++
			}
			fresh := *c
			fresh.balanceSaid.full = ""
			wantFull, wantShort := balanceSummary(b, &fresh)
			if full != wantFull || short != wantShort {
				t.Fatalf("%s, balance %d: kept words %q / %q, said afresh %q / %q", lang, i, full, short, wantFull, wantShort)
			}
		}
		if kept == 0 {
			t.Fatal("no verdict seen twice")
		}
	}
}

// TestStyledIsRender: the theme's styles drawn through the kept sequences
// (common.styled) equal their Render, for every style of every theme,
// under each colour profile in turn (the kept sequences follow a change).
func TestStyledIsRender(t *testing.T) {
	defer lipgloss.SetColorProfile(termenv.Ascii)
	lines := []string{"62°C", " THROTTLE power ", "› 0 H200   45% ▂▃▅▆█", "", "a\tb"}
	for _, name := range themes.Names() {
		c := &common{}
		for _, p := range []termenv.Profile{termenv.TrueColor, termenv.Ascii, termenv.ANSI256, termenv.ANSI} {
			lipgloss.SetColorProfile(p)
			st, err := themes.Build(name, true)
			if err != nil {
				t.Fatal(err)
			}
			if c.st == nil {
				c.st = &st
			}
			*c.st = st
			v := reflect.ValueOf(c.st).Elem()
			for i := range v.NumField() {
				s, ok := v.Field(i).Addr().Interface().(*lipgloss.Style)
				if !ok {
					continue
				}
				for _, line := range lines {
					if got, want := c.styled(s, line), s.Render(line); got != want {
						t.Fatalf("theme %s, profile %v, style %s: %q drawn %q, Render %q", name, p, v.Type().Field(i).Name, line, got, want)
					}
				}
			}
		}
		if len(c.lineStyles) == 0 {
			t.Fatalf("theme %s: no style kept", name)
		}
	}
}

// TestDrawnJoinFollowsBothPanes: the kept side-by-side join is joined
// again when either pane or the left width changes.
func TestDrawnJoinFollowsBothPanes(t *testing.T) {
	var d drawnJoin
	for _, tc := range []struct {
		left  string
		lw    int
		right string
	}{{"a\nb", 3, "x\ny"}, {"a\nb", 3, "x\ny"}, {"a\nc", 3, "x\ny"}, {"a\nc", 3, "x\nz"}, {"a\nc", 5, "x\nz"}, {"a", 5, "x\nz\nw"}} {
		if got, want := d.join(tc.left, tc.lw, tc.right), joinColumns(tc.left, tc.lw, tc.right); got != want {
			t.Fatalf("%q | %q at %d: kept join %q, want %q", tc.left, tc.right, tc.lw, got, want)
		}
	}
}

// TestViewLinesIsViewSplit: the frame's lines as the Painter takes them
// are View split at its newlines, on the main panes, on pages, at two
// sizes and on a screen too small, and the Painter writes the same bytes
// from either.
func TestViewLinesIsViewSplit(t *testing.T) {
	for _, size := range [][2]int{{200, 50}, {100, 30}, {20, 5}} {
		m := fixtureModelN(30, 8, size[0], size[1], nil)
		var a, b strings.Builder
		pa, pb := &paintState{out: &a, w: size[0], h: size[1]}, &paintState{out: &b, w: size[0], h: size[1]}
		for i, keys := range [][]string{nil, {"?"}, {"esc"}, {"tab", "enter"}, {"esc"}} {
			if keys != nil {
				m = press(m, keys...)
			}
			want := strings.Split(m.View(), "\n")
			if got := m.ViewLines(); !reflect.DeepEqual(got, want) {
				t.Fatalf("%dx%d, view %d: ViewLines %q\nwant %q", size[0], size[1], i, got, want)
			}
			pa.flushLines(m.ViewLines())
			pb.flush(m.View())
			if a.String() != b.String() {
				t.Fatalf("%dx%d, view %d: the Painter wrote %q from the lines, %q from the view", size[0], size[1], i, a.String(), b.String())
			}
		}
	}
}
