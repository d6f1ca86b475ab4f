package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/ui/uitest"
)

func TestPauseFreezesView(t *testing.T) {
	m, _ := fixtureModel(10, 120, 40)
	m = press(m, "space")
	before := m.View()
	if !strings.Contains(before, "PAUSED") {
		t.Fatal("no PAUSED badge")
	}
	nm, cmd := m.Update(frameMsg(diagnose.Frame{Snapshot: fixtureSnapshot(50)}))
	if after := nm.(Model).View(); after != before {
		t.Error("a snapshot changed the paused view")
	}
	_ = cmd
	m = press(nm.(Model), "space")
	nm, _ = m.Update(frameMsg(diagnose.Frame{Snapshot: fixtureSnapshot(51)}))
	if nm.(Model).View() == before {
		t.Error("unpaused view did not change on new data")
	}
}

func TestIntervalKeys(t *testing.T) {
	var got []time.Duration
	m, _ := fixtureModel(1, 80, 24)
	m.c.opts.SetInterval = func(d time.Duration) { got = append(got, d) }
	m = press(m, "+", "+", "-", "-", "-")
	want := []time.Duration{2 * time.Second, 5 * time.Second, 2 * time.Second, time.Second, 500 * time.Millisecond}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("SetInterval calls %v, want %v", got, want)
	}
	if !strings.Contains(m.View(), "every 500ms") {
		t.Error("header does not show the new interval")
	}
}

func TestNextIntervalBounds(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		dir  int
		want time.Duration
	}{
		{time.Minute, 1, time.Minute}, {100 * time.Millisecond, -1, 100 * time.Millisecond},
		{3 * time.Second, 1, 5 * time.Second}, {3 * time.Second, -1, 2 * time.Second},
	} {
		if got := nextInterval(tt.d, tt.dir); got != tt.want {
			t.Errorf("nextInterval(%v, %d) = %v, want %v", tt.d, tt.dir, got, tt.want)
		}
	}
}

func TestSortKeys(t *testing.T) {
	m, _ := fixtureModel(3, 200, 50)
	if name := m.procs.cols[m.procs.sortBy].name; name != "GPU-MEM" {
		t.Fatalf("default sort %s", name)
	}
	m.procs.View()
	if m.procs.rows[0].p.PID != 5100 { // vllm holds 123 GiB, the most
		t.Errorf("first row PID %d, want 5100", m.procs.rows[0].p.PID)
	}
	m = press(m, "s")
	if name := m.procs.cols[m.procs.sortBy].name; name != "SM%" {
		t.Errorf("after s: sort %s, want SM%%", name)
	}
	m = press(m, "s")
	m.procs.View()
	if m.procs.rows[0].p.PID != 7100 && m.procs.rows[0].p.PID != 6100 { // 100% CPU
		t.Errorf("CPU sort first PID %d", m.procs.rows[0].p.PID)
	}
	m = press(m, "S")
	m.procs.View()
	if last := m.procs.rows[0]; last.p.PID != 4100 { // notebook: 0.3% CPU
		t.Errorf("reversed CPU sort first PID %d, want 4100", last.p.PID)
	}
	if !strings.Contains(m.View(), "python train.py --rank 0 (+8)") {
		t.Error("worker count not shown")
	}
	m = m.resize(80, 24) // the command is cut, the worker count stays
	if v := m.View(); !strings.Contains(v, "python train… (+8)") {
		t.Errorf("worker count lost when the command is cut:\n%s", v)
	}
}

func TestQuitKeys(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		m, _ := fixtureModel(1, 80, 24)
		_, cmd := m.Update(uitest.Key(k))
		if cmd == nil {
			t.Fatalf("%s: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s did not quit", k)
		}
	}
}

func TestTabCyclesFocus(t *testing.T) {
	m, _ := fixtureModel(1, 80, 24)
	seen := []focusArea{m.c.focus}
	for i := 0; i < 3; i++ {
		m = press(m, "tab")
		seen = append(seen, m.c.focus)
	}
	if fmt.Sprint(seen) != fmt.Sprint([]focusArea{focusGPUs, focusFindings, focusProcs, focusGPUs}) {
		t.Errorf("focus sequence %v", seen)
	}
}

func TestEnterOnlyOpensFromFindings(t *testing.T) {
	m, _ := fixtureModel(5, 120, 40)
	if m = press(m, "enter"); m.pages.isOpen(pageFinding) || !m.pages.isOpen(pageGPU) || m.gdetail.gpu != 0 {
		t.Errorf("enter in the GPU pane: finding detail %v, GPU detail %v of GPU %d; want the GPU detail of GPU 0", m.pages.isOpen(pageFinding), m.pages.isOpen(pageGPU), m.gdetail.gpu)
	}
	m = press(m, "esc")
	if m = press(m, "tab"); m.c.selGPU != 4 || !strings.Contains(m.View(), "Three levels · GPU 4") {
		t.Errorf("focusing the findings shows GPU %d, want 4 (the first finding's)", m.c.selGPU)
	}
	m = press(m, "down", "enter")
	if !m.pages.isOpen(pageFinding) || m.detail.finding.Rule != "input_starved" {
		t.Errorf("detail open %v rule %q; want input_starved (second by severity)", m.pages.isOpen(pageFinding), m.detail.finding.Rule)
	}
	if m.c.selGPU != 1 {
		t.Errorf("side pane GPU %d, want 1", m.c.selGPU)
	}
}

func TestProblemsInFooter(t *testing.T) {
	m, _ := fixtureModel(1, 80, 24)
	s := fixtureSnapshot(1)
	s.Problems = []string{"GPU source panicked (recovered): boom\nstack..."}
	m = push(m, s)
	v := m.View()
	requireFits(t, v, 80, 24)
	last := v[strings.LastIndex(v, "\n")+1:]
	if !strings.Contains(last, "GPU source panicked (recovered): boom") || strings.Contains(last, "stack") {
		t.Errorf("footer %q", last)
	}
}

func TestAllClearSaysWhatWasChecked(t *testing.T) {
	m, d := fixtureModel(0, 80, 24)
	d.findings = nil
	for i := 0; i < 120; i++ {
		m = d.push(m, fixtureSnapshot(i))
	}
	if v := m.View(); !strings.Contains(v, "20 rules checked over the last 120 s: no problem found") {
		t.Errorf("no all-clear line:\n%s", v)
	}
	if d.lastLen != 120 {
		t.Errorf("diagnoser saw %d snapshots, want the 120 s window", d.lastLen)
	}
}

// TestProgramRuns drives the real Bubble Tea loop: snapshots arrive on the
// channel through Feed, then q ends the program.
func TestProgramRuns(t *testing.T) {
	ch := make(chan diagnose.Frame, 1)
	m, _ := fixtureModel(0, 80, 24)
	var out bytes.Buffer
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(&out), tea.WithoutSignalHandler())
	go Feed(p, ch)
	done := make(chan tea.Model, 1)
	go func() {
		final, err := p.Run()
		if err != nil {
			t.Error(err)
		}
		done <- final
	}()
	p.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	for i := 0; i < 3; i++ {
		ch <- diagnose.Frame{Snapshot: fixtureSnapshot(i)}
	}
	// Feed takes the next frame from ch only once the program has received
	// the one before, so once the third send is taken the first frame is
	// ahead of q in the program's loop.
	p.Send(uitest.Key("q"))
	select {
	case final := <-done:
		if final.(Model).c.hist.len() < 1 {
			t.Error("final model has no history")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("q did not end the program")
	}
}

func TestArrowsMoveInFocusedPane(t *testing.T) {
	m, _ := fixtureModel(5, 80, 24)
	m = press(m, "down", "down")
	if m.gpus.cursor != 2 || m.c.selGPU != 2 {
		t.Errorf("GPU cursor %d, side GPU %d; want 2 2", m.gpus.cursor, m.c.selGPU)
	}
	m = press(m, "tab", "tab", "j", "j", "up") // k is SIGTERM in the process pane
	if m.procs.cursor != 1 {
		t.Errorf("process cursor %d, want 1", m.procs.cursor)
	}
	if !strings.Contains(m.View(), "›    2100 alice") {
		t.Errorf("cursor not on the second process (PID 2100):\n%s", m.View())
	}
	m = press(m, "down", "down", "down", "down", "down", "down", "down", "down")
	if m.procs.cursor != 5 {
		t.Errorf("cursor %d, want clamped at 5 (6 processes)", m.procs.cursor)
	}
	requireFits(t, m.View(), 80, 24)
}

func TestFindingCursorFollowsReorder(t *testing.T) {
	m, d := fixtureModel(5, 120, 40)
	m = press(m, "tab", "down") // on input_starved (GPU 1)
	if f, _ := m.findings.selected(); f.Rule != "input_starved" {
		t.Fatalf("selected %s", f.Rule)
	}
	var rest []diagnose.Finding // thermal_throttle resolved: the list shifts up
	for _, f := range d.findings {
		if f.Rule != "thermal_throttle" {
			rest = append(rest, f)
		}
	}
	d.findings = rest
	m = d.push(m, fixtureSnapshot(5))
	if f, _ := m.findings.selected(); f.Rule != "input_starved" {
		t.Errorf("after reorder the cursor is on %s, want input_starved", f.Rule)
	}
}

// Bug found in use: while paused the header dropped the source badge, so a
// paused demo looked like a paused live node.
func TestPausedHeaderKeepsSourceBadge(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		m, _ := fixtureModel(10, sz.w, sz.h)
		head := strings.SplitN(press(m, "space").View(), "\n", 2)[0]
		if !strings.Contains(head, "DEMO mixed") || !strings.Contains(head, "PAUSED") {
			t.Errorf("%dx%d paused header %q lacks DEMO mixed or PAUSED", sz.w, sz.h, head)
		}
	}
}
