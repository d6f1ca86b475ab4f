package replay

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/uitest"
)

func TestPlayAdvancesAtSpeed(t *testing.T) {
	m, _ := newReplay(t, Options{}, 120, 40)
	if !m.Playing() || m.Init() == nil {
		t.Fatal("a replay starts playing")
	}
	cases := []struct {
		keys    []string
		speed   float64
		delay   time.Duration
		perTick int
	}{
		{nil, 1, time.Second, 1},
		{[]string{">"}, 2, 500 * time.Millisecond, 1},
		{[]string{".", "."}, 10, 100 * time.Millisecond, 1},
		{[]string{">"}, 60, 100 * time.Millisecond, 6},
		{[]string{">"}, 60, 100 * time.Millisecond, 6}, // the fastest stays
		{[]string{"<", "<", "<", ",", ","}, 0.5, 2 * time.Second, 1},
	}
	for _, c := range cases {
		m = press(t, m, c.keys...)
		if m.Speed() != c.speed || m.tickDelay() != c.delay {
			t.Fatalf("after %v: speed %v, delay %v; want %v, %v", c.keys, m.Speed(), m.tickDelay(), c.speed, c.delay)
		}
		before := m.Cursor()
		var cmd tea.Cmd
		m, cmd = tick(m)
		if got := m.Cursor() - before; got != c.perTick || cmd == nil {
			t.Fatalf("speed %v: a tick advanced %d snapshots (want %d), next tick %v", c.speed, got, c.perTick, cmd != nil)
		}
	}
	// A tick scheduled before a key that reschedules is dropped.
	stale := m.gen
	m = press(t, m, ">")
	before := m.Cursor()
	nm, _ := m.Update(tickMsg{stale})
	if nm.(Model).Cursor() != before {
		t.Fatal("a stale tick moved the cursor")
	}
}

func TestStepJumpHomeEnd(t *testing.T) {
	m, _ := newReplay(t, Options{}, 120, 40)
	n := m.Len()
	steps := []struct {
		key     string
		want    int
		playing bool
	}{
		{"right", 1, false}, {"right", 2, false}, {"left", 1, false},
		{"]", 11, false}, {"]", 21, false}, {"[", 11, false}, {"[", 1, false}, {"[", 0, false},
		{"space", 0, true}, {"]", 10, true}, {"end", n - 1, false}, {"home", 0, false},
		{"left", 0, false}, {"end", n - 1, false}, {"right", n - 1, false},
	}
	for i, s := range steps {
		m = press(t, m, s.key)
		if m.Cursor() != s.want || m.Playing() != s.playing {
			t.Fatalf("step %d (%s): cursor %d playing %v; want %d %v", i, s.key, m.Cursor(), m.Playing(), s.want, s.playing)
		}
	}
	if tl := m.timelineLine(120); !strings.Contains(tl, "END") || !strings.Contains(tl, fmt.Sprintf("%d/%d", n, n)) {
		t.Fatalf("at the end the timeline says %q", tl)
	}
	// Playing into the end stops there.
	m = press(t, m, "home", "end", "[", "space")
	for i := 0; i < 20 && m.Playing(); i++ {
		m, _ = tick(m)
	}
	if m.Playing() || m.Cursor() != n-1 || m.schedule() != nil {
		t.Fatalf("playback did not stop at the end: cursor %d playing %v", m.Cursor(), m.Playing())
	}
	// space at the end starts over.
	if m = press(t, m, "space"); m.Cursor() != 0 || !m.Playing() {
		t.Fatalf("space at END: cursor %d playing %v", m.Cursor(), m.Playing())
	}
}

// findingKeys are a finding list as sorted "rule/gpu" strings.
func findingKeys(fs []diagnose.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s/%d", f.Rule, f.GPU))
	}
	sort.Strings(out)
	return out
}

// After a jump back, the findings are those of a dashboard that was fed
// the recording from its start up to that point.
func TestJumpBackDiagnosesAsLive(t *testing.T) {
	tl, err := jobsEnd()
	if err != nil {
		t.Fatal(err)
	}
	m, last := newReplayOf(t, tl, Options{Paused: true}, 120, 40)
	ref := diagnose.NewViewTracker(diagnose.Options{}) // the live collector's
	fed, seen := 0, 0
	for _, at := range []int{99, 165, 175, 289} {
		m = finish(m.seek(at + 10))
		if m = press(t, m, "["); m.Cursor() != at {
			t.Fatalf("[ from %d went to %d", at+10, m.Cursor())
		}
		for ; fed <= at; fed++ {
			ref.Observe(tl[fed])
		}
		got, want := findingKeys((*last).Last().Findings), findingKeys(ref.Last().Findings)
		seen += len(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("at snapshot %d: replay shows %v, live showed %v", at, got, want)
		}
	}
	if seen == 0 {
		t.Fatal("the live dashboard had no findings: a test that cannot fail")
	}
}

func TestSpaceNeverPausesTheDashboard(t *testing.T) {
	m, _ := newReplay(t, Options{}, 120, 40)
	m = press(t, m, "space")
	if m.Playing() || strings.Contains(m.View(), "PAUSED") {
		t.Fatal("space should pause the replay, not the dashboard")
	}
	if before := m.Cursor(); press(t, m, "right").Cursor() != before+1 {
		t.Fatal("a step after pause did not show the next snapshot")
	}
}

// Focus survives a rebuild: the dashboard is Reset with the new frames and
// keeps what the user chose.
func TestViewStateSurvivesJumpBack(t *testing.T) {
	m, _ := newReplay(t, Options{Paused: true}, 120, 40)
	m = press(t, m, "]", "]", "]", "tab")
	focused := func(v string) int {
		for i, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "▸ Why idle") {
				return i
			}
		}
		return -1
	}
	if focused(m.View()) < 0 {
		t.Fatal("tab did not focus the findings")
	}
	if m = press(t, m, "["); focused(m.View()) < 0 {
		t.Fatal("focus lost after a jump back")
	}
	// The side pane is computed after the backfill (which skips it).
	if v := m.View(); !strings.Contains(v, "Three levels") || strings.Contains(v, "  n/a\n") {
		t.Fatalf("no three levels after a rebuild:\n%s", v)
	}
	// An open page stays open across jumps both ways, however many keys
	// came before (a replayed key log was cut at 4096 keys).
	m = press(t, m, "t")
	page := m.View()
	if !strings.Contains(page, "Topology") {
		t.Fatalf("t opened no topology page:\n%s", page)
	}
	for range 5000 {
		m = press(t, m, "down")
	}
	if m = press(t, m, "]", "["); !strings.Contains(m.View(), "Topology") {
		t.Fatalf("the topology page closed on a jump:\n%s", m.View())
	}
	if m = press(t, m, "esc"); focused(m.View()) < 0 {
		t.Fatal("focus lost under the page")
	}
}

func TestViewFitsEveryWidth(t *testing.T) {
	m, _ := newReplay(t, Options{Paused: true, Name: strings.Repeat("long-recording-name-", 5) + ".jsonl.gz"}, 120, 40)
	m = press(t, m, "]", "]")
	for w := 1; w <= 200; w++ {
		if tw := lipgloss.Width(m.timelineLine(w)); tw > w {
			t.Fatalf("timeline is %d wide at w=%d", tw, w)
		}
	}
	for _, sz := range []struct{ w, h int }{{40, 10}, {40, 24}, {80, 24}, {100, 30}, {160, 50}, {200, 60}} {
		nm, _ := m.Update(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
		v := nm.(Model).View()
		lines := strings.Split(v, "\n")
		if len(lines) != sz.h {
			t.Errorf("%dx%d: %d lines", sz.w, sz.h, len(lines))
		}
		for i, l := range lines {
			if lipgloss.Width(l) > sz.w {
				t.Errorf("%dx%d: line %d is %d wide", sz.w, sz.h, i, lipgloss.Width(l))
			}
		}
		if last := lines[len(lines)-1]; !strings.Contains(last, "⏸") || !strings.Contains(last, "14:00:20") {
			t.Errorf("%dx%d: timeline %q lacks the state or the time", sz.w, sz.h, last)
		}
	}
}

// BenchmarkJumpBack is one `[`: a rebuild with its re-diagnosis.
func BenchmarkJumpBack(b *testing.B) {
	tl, err := demo300()
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{UI: uiOptions(), Paused: true,
		NewTracker: func() *diagnose.Tracker { return diagnose.NewViewTracker(diagnose.Options{}) }}
	m := New(tl, opts)
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	m = nm.(Model)
	for b.Loop() {
		m = finish(m.rebuildAt(250))
	}
}

// While the process filter reads text, q and the timeline keys are text.
func TestFilterTextIsNotCommands(t *testing.T) {
	m, _ := newReplay(t, Options{Paused: true}, 120, 40)
	m = press(t, m, "/")
	for _, k := range []string{"q", "[", "]", " ", ">"} {
		nm, cmd := m.Update(uitest.Key(k))
		m = nm.(Model)
		if cmd != nil || m.Cursor() != 0 || m.Speed() != 1 || m.Playing() {
			t.Fatalf("%q while filtering acted on the replay", k)
		}
	}
	nm, _ := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if m = press(t, nm.(Model), "]"); m.Cursor() != 10 {
		t.Fatalf("after enter, ] went to %d", m.Cursor())
	}
}

// A click on the bar seeks there and pauses; the rest of the row does nothing.
func TestClickOnTheBarSeeks(t *testing.T) {
	m, _ := newReplay(t, Options{}, 120, 40)
	_, at, n := m.timelineParts(120)
	click := func(x int) Model {
		nm, _ := m.Update(tea.MouseMsg{X: x, Y: 39, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
		return finish(nm.(Model))
	}
	if got := click(at + n - 1); got.Cursor() != got.Len()-1 || got.Playing() {
		t.Fatalf("click at the bar's end: cursor %d playing %v", got.Cursor(), got.Playing())
	}
	if got := click(at + (n-1)/2); got.Cursor() < got.Len()/2-5 || got.Cursor() > got.Len()/2+5 {
		t.Fatalf("click at the bar's middle: cursor %d of %d", got.Cursor(), got.Len())
	}
	if got := click(0); got.Cursor() != 0 || !got.Playing() {
		t.Fatalf("a click on the state mark moved the cursor to %d", got.Cursor())
	}
}

// The timeline's keys are the key map's: ? lists them, [keys] remaps them.
func TestTimelineKeysInTheKeyMap(t *testing.T) {
	opts := Options{Paused: true, UI: uiOptions()}
	opts.UI.Keys = map[string][]string{"replay_jump_forward": {"n"}}
	nm, _ := New(sharedTimeline(t), opts).Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m := nm.(Model)
	help := press(t, m, "?").View()
	for _, want := range []string{"play / pause the replay", "[ / n", "home / end"} {
		if !strings.Contains(help, want) {
			t.Errorf("? lacks %q:\n%s", want, help)
		}
	}
	if got := press(t, m, "n").Cursor(); got == 0 {
		t.Error("n (remapped jump forward) did not move the cursor")
	}
	if got := press(t, m, "]").Cursor(); got != 0 {
		t.Errorf("] still jumps after remapping to n: cursor %d", got)
	}
}

// A jump is diagnosed by the command Update returns, never in Update: the
// keys and the screen stay live while minutes of snapshots re-diagnose, and
// seeks made meanwhile only move where the job in flight leads.
func TestSeekDiagnosesOffUpdate(t *testing.T) {
	m, _ := newReplay(t, Options{Paused: true}, 120, 40)
	made := 0
	m.opts.NewTracker = func() *diagnose.Tracker {
		made++
		return diagnose.NewViewTracker(diagnose.Options{})
	}
	nm, cmd := m.Update(uitest.Key("end"))
	m = nm.(Model)
	if made != 0 || m.Cursor() != 0 || cmd == nil {
		t.Fatalf("end diagnosed in Update (trackers made %d, cursor %d, command %v)", made, m.Cursor(), cmd != nil)
	}
	nm, again := m.Update(uitest.Key("home")) // while the job runs: only the target moves
	m = nm.(Model)
	if again != nil {
		t.Fatal("a second seek while one is in flight started another job")
	}
	nm, _ = m.Update(cmd())
	m = nm.(Model)
	if m.Cursor() != m.Len()-1 || made != 1 || m.job == nil {
		t.Fatalf("after the first job: cursor %d of %d, trackers %d, next job %v", m.Cursor(), m.Len(), made, m.job != nil)
	}
	if m = finish(m); m.Cursor() != 0 || made != 2 {
		t.Fatalf("the moved target was not reached: cursor %d, trackers %d", m.Cursor(), made)
	}
}

// Keys that came in one read (">>" from tmux send-keys, a fast typist
// over ssh) act one by one under the Painter, the timeline's keys as the
// dashboard's: q q quits.
func TestKeyBurstActsKeyByKey(t *testing.T) {
	m, _ := newReplay(t, Options{Paused: true}, 120, 40)
	var out strings.Builder
	var p tea.Model = ui.NewPainter(m, &out, 1<<30) // every frame painted at once
	p, _ = p.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	p, _ = p.Update(uitest.Key(">>"))
	if !strings.Contains(ansi.Strip(out.String()), "⏸ 5×") {
		t.Error(`the burst ">>" did not make the speed 5× (two steps from 1×)`)
	}
	_, cmd := p.Update(uitest.Key("qq"))
	quit := false
	if cmd != nil {
		switch msg := cmd().(type) {
		case tea.QuitMsg:
			quit = true
		case tea.BatchMsg:
			for _, c := range msg {
				_, ok := c().(tea.QuitMsg)
				quit = quit || ok
			}
		}
	}
	if !quit {
		t.Error(`the burst "qq" did not quit`)
	}
}
