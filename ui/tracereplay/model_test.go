package tracereplay

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuscope/gpuscope/diagnose/timeline"
	"github.com/gpuscope/gpuscope/sampler/trace"
	"github.com/gpuscope/gpuscope/sampler/trace/tracetest/nsystest"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

const testdata = "../../sampler/trace/testdata"

// load reads traces as the command's loader does: strips and analysis.
func load(t *testing.T, files ...string) Load {
	t.Helper()
	s := timeline.NewStrips()
	var ranks []timeline.Rank
	for i, f := range files {
		procs := timeline.NewProcs()
		m, err := trace.ReadFile(path(f), func(e trace.Event) error {
			s.Add(i, e)
			return procs.Add(e)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range procs.Ranks(m) {
			s.SetRank(i, r.Proc, r.Rank)
			ranks = append(ranks, r)
		}
	}
	return Load{Strips: s, Done: true, Report: timeline.NewReport(ranks)}
}

// path is f in the traces' testdata, or f itself when absolute.
func path(f string) string {
	if filepath.IsAbs(f) {
		return f
	}
	return filepath.Join(testdata, f)
}

func newModel(t *testing.T, w, h int, l Load, lang string) Model {
	t.Helper()
	st, err := themes.Build("mono", false)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Styles: st, Tr: i18n.For(lang), Name: "trace.json.gz"})
	m = step(m, tea.WindowSizeMsg{Width: w, Height: h})
	return step(m, loadMsg(l))
}

func step(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

func keys(m Model, ks ...string) Model {
	for _, k := range ks {
		var msg tea.KeyMsg
		switch k {
		case "left", "right", "up", "down", "home", "end":
			msg = tea.KeyMsg{Type: map[string]tea.KeyType{"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp,
				"down": tea.KeyDown, "home": tea.KeyHome, "end": tea.KeyEnd}[k]}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		m = step(m, msg)
	}
	return m
}

func plain(m Model) string { return ansi.Strip(m.View()) }

// The articles' example (ResNet-50, num_workers=0) at both sizes: a strip
// with the DataLoader's gaps, the cursor's kernel, the findings beside or
// under the strips.
func TestGoldenTraceReplay(t *testing.T) {
	l := load(t, "tb_resnet50_workers0.pt.trace.json.gz")
	for _, sz := range []struct{ w, h int }{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m := keys(newModel(t, sz.w, sz.h, l, "en"), "right", "right", "right")
			v := plain(m)
			lines := strings.Split(v, "\n")
			if len(lines) != sz.h {
				t.Fatalf("%d lines, want %d", len(lines), sz.h)
			}
			for i, line := range lines {
				if w := ansi.StringWidth(line); w > sz.w {
					t.Errorf("line %d is %d cells wide, over %d", i, w, sz.w)
				}
			}
			for _, want := range []string{"TRACE", "s7", "···", "input_starved, confirmed", "launch_bound", "compute", "←/→ move"} {
				if !strings.Contains(v, want) {
					t.Errorf("view lacks %q:\n%s", want, v)
				}
			}
			golden.RequireEqual(t, []byte(v))
		})
	}
}

// Ranks of a directory each get their strips, named by their rank.
func TestTraceReplayRanks(t *testing.T) {
	m := newModel(t, 120, 30, load(t, "hta_sampled_rank-1.json.gz", "hta_sampled_rank-0.json.gz"), "en")
	v := plain(m)
	for _, want := range []string{"r0 s7", "r1 s7", "comm_bound"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if strings.Index(v, "r0 s7") > strings.Index(v, "r1 s7") {
		t.Error("rank 1 drawn above rank 0")
	}
}

// The cursor moves a column a key, zoom narrows the window around it, and
// home/end go to the trace's ends.
func TestTraceReplayCursorAndZoom(t *testing.T) {
	m := newModel(t, 120, 30, load(t, "tb_resnet50_workers0.pt.trace.json.gz"), "en")
	from, to, _ := m.strips.Span()
	if m.v0 != from || m.v1 != to || m.cur != from {
		t.Fatalf("window [%v, %v) cursor %v, want the whole trace from its start", m.v0, m.v1, m.cur)
	}
	col := m.colWidth()
	m = keys(m, "right", "right")
	if d := m.cur - from; d < 1.99*col || d > 2.01*col {
		t.Errorf("two rights moved %v µs, want two columns (%v)", d, 2*col)
	}
	m = keys(m, "+++") // typed faster than a frame: three zooms
	if got := m.v1 - m.v0; got > (to-from)/7.9 || got < (to-from)/8.1 {
		t.Errorf("three zooms: window %v µs, want an eighth of %v", got, to-from)
	}
	if m.cur < m.v0 || m.cur >= m.v1 {
		t.Errorf("cursor %v left the window [%v, %v)", m.cur, m.v0, m.v1)
	}
	m = keys(m, "end")
	if m.cur != to || m.v1 < to {
		t.Errorf("end: cursor %v window [%v, %v), want the trace's end %v in view", m.cur, m.v0, m.v1, to)
	}
	m = keys(m, "-", "-", "-", "-", "home")
	if m.cur != from || m.v0 != from || m.v1 != to {
		t.Errorf("zoomed out and home: cursor %v window [%v, %v)", m.cur, m.v0, m.v1)
	}
}

// The screen draws the strips read so far, says it is reading, and shows
// the findings when the loader is done.
func TestTraceReplayDrawsWhileReading(t *testing.T) {
	l := load(t, "tb_resnet50_workers0.pt.trace.json.gz")
	part := l
	part.Done, part.Report = false, nil
	m := newModel(t, 120, 30, part, "en")
	v := plain(m)
	if !strings.Contains(v, "reading…") || !strings.Contains(v, "s7 ") || strings.Contains(v, "input_starved") {
		t.Errorf("while reading:\n%s", v)
	}
	m = step(m, loadMsg(l))
	if v := plain(m); strings.Contains(v, "reading…") || !strings.Contains(v, "input_starved") {
		t.Errorf("once read:\n%s", v)
	}
}

// Zoomed past the strips' bins, the window is read again and drawn from
// that read: the cursor names what only the fine read holds.
func TestTraceReplayReadsDetail(t *testing.T) {
	l := load(t, "tb_resnet50_workers0.pt.trace.json.gz")
	var asked [2]float64
	m := newModel(t, 120, 30, l, "en")
	m.opts.Detail = func(_ context.Context, from, to float64) (*timeline.Strips, error) {
		asked = [2]float64{from, to}
		s := timeline.NewStripsIn(from, to)
		s.Add(0, trace.Event{Kind: trace.Kernel, Name: "fine_kernel", Stream: 7, Device: 0, TS: from, Dur: to - from})
		return s, nil
	}
	var cmd tea.Cmd
	for i := 0; i < 12 && cmd == nil; i++ {
		var next tea.Model
		next, cmd = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+")})
		m = next.(Model)
	}
	if cmd == nil {
		t.Fatal("zoomed 4096× and no detail asked for")
	}
	if m.colWidth() >= 2*l.Strips.Resolution() || asked != [2]float64{} {
		t.Fatalf("detail asked too early (column %v µs, bins %v µs)", m.colWidth(), l.Strips.Resolution())
	}
	m = step(m, cmd())
	if asked[0] > m.v0 || asked[1] < m.v1 {
		t.Errorf("read [%v, %v), window [%v, %v) not inside", asked[0], asked[1], m.v0, m.v1)
	}
	if v := plain(m); !strings.Contains(v, "fine_kernel") {
		t.Errorf("the detail is not drawn:\n%s", v)
	}
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRight}); cmd != nil {
		t.Error("a step inside the detail read asks for it again")
	}
}

// A kernel's name is outside text: control characters never reach the
// terminal.
func TestTraceReplayEscapesNames(t *testing.T) {
	s := timeline.NewStrips()
	s.Add(0, trace.Event{Kind: trace.Kernel, Name: "evil\x1b]0;pwned\x07", Stream: 1, TS: 0, Dur: 100})
	m := newModel(t, 80, 24, Load{Strips: s, Done: true, Report: timeline.NewReport(nil)}, "en")
	v := m.View()
	if strings.Contains(v, "\x1b]0;") || !strings.Contains(v, "evil^[") {
		t.Errorf("name not escaped: %q", v)
	}
}

// In Chinese, the words are Chinese and the lines still fit.
func TestTraceReplayChinese(t *testing.T) {
	m := newModel(t, 80, 24, load(t, "tb_resnet50_workers0.pt.trace.json.gz"), "zh")
	v := plain(m)
	for _, want := range []string{"计算", "移动"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	for i, line := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("line %d is %d cells wide", i, w)
		}
	}
}

// An nsys export of two processes draws a strip set per process, each
// named by the rank it was numbered.
func TestTraceReplayNsysProcesses(t *testing.T) {
	evs := nsystest.Workload(3, 20)
	p := filepath.Join(t.TempDir(), "run.sqlite")
	if err := nsystest.WriteNsysRanks(p, [][]nsystest.Ev{evs, evs}, true); err != nil {
		t.Fatal(err)
	}
	v := plain(newModel(t, 120, 30, load(t, p), "en"))
	for _, want := range []string{"r0 s7", "r1 s7", "r0 s20", "r1 s20"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}

// While the window is read again the header says so, and stops saying it
// when the read is in.
func TestTraceReplaySaysDetailIsRead(t *testing.T) {
	m := newModel(t, 120, 30, load(t, "tb_resnet50_workers0.pt.trace.json.gz"), "en")
	m.opts.Detail = func(_ context.Context, from, to float64) (*timeline.Strips, error) {
		return timeline.NewStripsIn(from, to), nil
	}
	var cmd tea.Cmd
	for i := 0; i < 12 && cmd == nil; i++ {
		var next tea.Model
		next, cmd = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+")})
		m = next.(Model)
	}
	if !strings.Contains(plain(m), "reading the window in detail…") {
		t.Errorf("no word of the detail read:\n%s", plain(m))
	}
	if m = step(m, cmd()); strings.Contains(plain(m), "in detail…") {
		t.Errorf("the detail is in, yet still being read:\n%s", plain(m))
	}
}

// Zoom keys typed as one run still ask for the detail their window needs,
// though the last of them finds the read asked by an earlier one enough.
func TestTraceReplayKeyRunAsksForDetail(t *testing.T) {
	m := newModel(t, 120, 30, load(t, "tb_resnet50_workers0.pt.trace.json.gz"), "en")
	m.opts.Detail = func(_ context.Context, from, to float64) (*timeline.Strips, error) {
		return timeline.NewStripsIn(from, to), nil
	}
	next, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("++++++++++++")})
	if m = next.(Model); cmd == nil {
		t.Fatal("twelve zooms in one run asked for no detail")
	}
	if m = step(m, cmd()); m.detail == nil || m.fining {
		t.Errorf("the run's detail read was not taken (detail %v, still reading %v)", m.detail != nil, m.fining)
	}
}
