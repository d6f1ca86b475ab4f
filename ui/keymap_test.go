package ui

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// The help overlay is drawn from the key map: a remapped key shows there.
func TestHelpDrawnFromKeyMap(t *testing.T) {
	m, _ := fixtureModel(5, 120, 40)
	m.c.keys.Topology = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "topology (remapped)"))
	v := press(m, "?").View()
	if !strings.Contains(v, "topology (remapped)") {
		t.Fatalf("help does not show the key map:\n%s", v)
	}
	m = press(m, "esc", "t")
	if m.pages.isOpen(pageTopology) {
		t.Error("t still opens the topology after remapping it to o")
	}
	if m = press(m, "o"); !m.pages.isOpen(pageTopology) {
		t.Error("o does not open the topology")
	}
}

// Pages stack: the newest opened is drawn and takes keys; closing it
// shows the one below, whatever the pages are.
func TestPagesStack(t *testing.T) {
	m, _ := fixtureModel(5, 120, 40)
	main := ansi.Strip(m.View())
	m = press(m, "t")
	topo := ansi.Strip(m.View())
	if m.pages.top() != pageTopology || topo == main {
		t.Fatalf("t: top %d", m.pages.top())
	}
	if m = press(m, "?"); m.pages.top() != pageHelp || !m.pages.isOpen(pageTopology) {
		t.Fatalf("? over the topology: stack %v", m.pages.stack)
	}
	if m = press(m, "esc"); ansi.Strip(m.View()) != topo {
		t.Errorf("esc on help did not return to the topology:\n%s", m.View())
	}
	if m = press(m, "?", "?"); m.pages.top() != pageTopology {
		t.Errorf("? twice: stack %v, want the topology back on top", m.pages.stack)
	}
	if m = press(m, "esc"); m.pages.top() != pageMain || ansi.Strip(m.View()) != main {
		t.Errorf("esc on the topology: stack %v", m.pages.stack)
	}

	var p pages
	p.open(pageGPU)
	p.open(pageHelp)
	p.open(pageGPU) // opened again: moves to the top, not twice
	if len(p.stack) != 2 || p.top() != pageGPU {
		t.Errorf("stack %v, want [help gpu]", p.stack)
	}
	p.open(pageMain)
	p.close(pageGPU)
	if p.top() != pageHelp || p.isOpen(pageGPU) || p.isOpen(pageMain) {
		t.Errorf("stack %v, want [help]", p.stack)
	}
	ps := &pendingSignal{pid: 7}
	p.ask(ps)
	if p.top() != pageConfirm || p.answer() != ps || p.confirm != nil || p.isOpen(pageConfirm) {
		t.Errorf("ask/answer: stack %v", p.stack)
	}
}

// A [keys] table from config.toml: the remapped key works, the old one no
// longer does, and the help overlay shows the new keys (pairs relabelled).
func TestKeysRemappedThroughOptions(t *testing.T) {
	m, _ := fixtureModelWith(5, 120, 40, func(o *Options) {
		live(o)
		o.Keys = map[string][]string{"topology": {"o"}, "kill": {"X"}, "pause": {"p"}}
	})
	v := press(m, "?").View()
	for _, want := range []string{`│ o +topology:`, `│ k / X +SIGTERM / SIGKILL`, `│ p +pause`} {
		if !regexp.MustCompile(want).MatchString(v) {
			t.Errorf("help lacks %q:\n%s", want, v)
		}
	}
	m = press(m, "esc", "t")
	if m.pages.isOpen(pageTopology) {
		t.Error("t still opens the topology after remapping it to o")
	}
	if m = press(m, "o"); !m.pages.isOpen(pageTopology) {
		t.Error("o does not open the topology")
	}
}

func TestCheckKeysRejectsUnknownAction(t *testing.T) {
	if err := CheckKeys(map[string][]string{"explode": {"x"}}); err == nil || !strings.Contains(err.Error(), "keys.explode") {
		t.Errorf("err = %v", err)
	}
	if err := CheckKeys(map[string][]string{"quit": {}}); err == nil {
		t.Error("an empty key list was accepted")
	}
	if err := CheckKeys(map[string][]string{"quit": {"x"}, "page_down": {"space"}, "pause": {"p"}, "replay_play": {"R"}}); err != nil {
		t.Error(err)
	}
	if err := CheckKeys(map[string][]string{}); err != nil {
		t.Errorf("the default keys clash: %v", err)
	}
}

// A key given two meanings in one place is refused, naming both actions;
// the same key in places that never answer together is fine.
func TestCheckKeysRefusesClashes(t *testing.T) {
	for keys, want := range map[string]string{
		`{"tree": ["t"]}`:                `keys.topology and keys.tree both use "t" on the main screen`,
		`{"page_down": ["space"]}`:       `keys.pause and keys.page_down both use "space" on the main screen`,
		`{"prev_gpu": ["q"]}`:            `keys.quit and keys.prev_gpu both use "q" on a GPU page`,
		`{"replay_jump_forward": ["t"]}`: `keys.topology and keys.replay_jump_forward both use "t" on a replay`,
		`{"filter": ["1"]}`:              `the fixed key 1 … 9 and keys.filter both use "1" on the main screen`,
		`{"replay_end": ["home"]}`:       `keys.replay_start and keys.replay_end both use "home" on a replay`,
	} {
		var m map[string][]string
		if err := json.Unmarshal([]byte(keys), &m); err != nil {
			t.Fatal(err)
		}
		if err := CheckKeys(m); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", keys, err, want)
		}
	}
	// h is prev_gpu on a GPU page; on the main screen nothing else has it.
	if err := CheckKeys(map[string][]string{"tree": {"h"}}); err != nil {
		t.Errorf("h for the tree: %v", err)
	}
}

// The footer names the keys in force: before this it kept "t topology" and
// "space pause" after both were remapped.
func TestFooterFollowsRemappedKeys(t *testing.T) {
	m, _ := fixtureModelWith(5, 200, 40, func(o *Options) {
		o.Keys = map[string][]string{"topology": {"o"}, "pause": {"p"}, "up": {"w"}, "quit": {"x"}}
	})
	foot := ansi.Strip(m.footer())
	for _, want := range []string{"o topology", "p pause", "w/down j move", "x quit", "tab focus", "/ filter"} {
		if !strings.Contains(foot, want) {
			t.Errorf("footer lacks %q: %s", want, foot)
		}
	}
	for _, stale := range []string{"t topology", "space pause", "q quit", "↑↓"} {
		if strings.Contains(foot, stale) {
			t.Errorf("footer still says %q: %s", stale, foot)
		}
	}
	m = press(m, "o")
	if foot = ansi.Strip(m.footer()); !strings.Contains(foot, "esc back") || !strings.Contains(foot, "x quit") {
		t.Errorf("topology footer: %s", foot)
	}
	d, _ := fixtureModelWith(5, 200, 40, nil)
	if foot := ansi.Strip(d.footer()); !strings.Contains(foot, "tab focus ↑↓ move enter detail 1-9 GPU t topology") {
		t.Errorf("default footer changed: %s", foot)
	}
}

// config.toml's sort, sort_reverse and tree set the process pane at start;
// an unknown column keeps the default (the file is checked before this).
func TestProcPaneStartsAsConfigured(t *testing.T) {
	m, _ := fixtureModelWith(5, 200, 40, func(o *Options) {
		o.ProcSort, o.ProcSortReverse, o.ProcTree = "cpu", true, true
	})
	if p := m.procs; p.cols[p.sortBy].name != "CPU%" || !p.reverse || !p.tree {
		t.Errorf("sort %s reverse %v tree %v; want CPU%% reversed as a tree", p.cols[p.sortBy].name, p.reverse, p.tree)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "sort CPU% ▲") {
		t.Errorf("the pane's title does not say sort CPU%% ▲:\n%s", v)
	}
	for name, want := range map[string]string{"gpu_mem": "GPU-MEM", "sm": "SM%", "time": "TIME", "pid": "PID", "nonsense": "GPU-MEM"} {
		m, _ := fixtureModelWith(5, 200, 40, func(o *Options) { o.ProcSort = name })
		if got := m.procs.cols[m.procs.sortBy].name; got != want {
			t.Errorf("sort = %q opened sorted by %s, want %s", name, got, want)
		}
	}
}

// However narrow, the footer keeps the way to the keys and the way out:
// at 80 columns it used to end in "space …" with "? help" and "q quit" cut.
func TestFooterKeepsHelpAndQuit(t *testing.T) {
	for _, w := range []int{50, 60, 80, 100, 200} {
		m, _ := fixtureModelWith(5, w, 24, nil)
		foot := ansi.Strip(m.footer())
		if !strings.HasSuffix(foot, "? help q quit") || ansi.StringWidth(foot) > w {
			t.Errorf("%d columns: %q (%d wide)", w, foot, ansi.StringWidth(foot))
		}
		if w >= 100 && strings.Contains(foot, "…") {
			t.Errorf("%d columns: hints dropped with room to spare: %q", w, foot)
		}
	}
}

// The help offers only the keys that act here: a replay has no pause,
// recording, interval or signals; a demo no signals.
func TestHelpOffersWhatActs(t *testing.T) {
	for _, c := range []struct {
		name       string
		edit       func(*Options)
		want, lack []string
	}{
		{"live", live, []string{"pause", "SIGTERM / SIGKILL", "start / stop recording", "sample less"}, nil},
		{"demo", func(o *Options) { live(o); o.Kill = nil }, []string{"pause", "start / stop recording"}, []string{"SIGTERM / SIGKILL"}},
		{"readonly", func(o *Options) { live(o); o.ReadOnly = true }, nil, []string{"SIGTERM / SIGKILL"}},
		{"replay", func(o *Options) { o.Replay = true }, []string{"play / pause the replay", "jump 10 s"},
			[]string{"pause (keep", "SIGTERM / SIGKILL", "start / stop recording", "sample less"}},
	} {
		m, _ := fixtureModelWith(5, 120, 40, c.edit)
		v := press(m, "?").View()
		for _, w := range c.want {
			if !strings.Contains(v, w) {
				t.Errorf("%s: help lacks %q", c.name, w)
			}
		}
		for _, l := range c.lack {
			if strings.Contains(v, l) {
				t.Errorf("%s: help offers %q, which does nothing here", c.name, l)
			}
		}
	}
}
