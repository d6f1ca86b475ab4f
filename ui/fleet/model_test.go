package fleet

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
)

// The fleet view lists the nodes; enter opens the node's dashboard over its
// history; b comes back to the fleet.
func TestFleetViewOpensANode(t *testing.T) {
	st, _ := themes.Build("mono", false)
	v := testView()
	var asked fleetsnap.NodeKey
	m := New(Options{Styles: st, Interval: 10 * time.Millisecond,
		Load: func(context.Context) (View, error) { return v, nil },
		History: func(_ context.Context, key fleetsnap.NodeKey, from time.Time) ([]sampler.Snapshot, error) {
			asked = key
			var out []sampler.Snapshot
			for i := range 5 {
				out = append(out, sampler.Snapshot{Time: from.Add(time.Duration(i) * time.Second), Node: sampler.Node{Hostname: "gpu-a"},
					GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200", Util: sampler.Some(77), MemUsed: sampler.Some(1 << 30), MemTotal: sampler.Some(80 << 30)}}})
			}
			return out, nil
		},
		Dashboard: func(badge string) ui.Options { return ui.DefaultOptions(st, badge, time.Second) },
	})
	step := func(msg tea.Msg) tea.Cmd {
		next, cmd := m.Update(msg)
		m = next.(Model)
		return cmd
	}
	step(tea.WindowSizeMsg{Width: 120, Height: 40})
	step(m.Init()())
	if out := m.View(); !strings.Contains(out, "gpu-a") || !strings.Contains(out, "DOWN") || !strings.Contains(out, "› gpu-a") {
		t.Fatalf("fleet view:\n%s", out)
	}
	cmd := step(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter did not ask for the node's history")
	}
	opened := step(cmd())
	if asked.Instance != "a:9400" || m.node == nil {
		t.Fatalf("opened %+v", asked)
	}
	if out := m.View(); !strings.Contains(out, "PROM gpu-a") || !strings.Contains(out, "77%") {
		t.Errorf("node dashboard:\n%s", out)
	}
	// The next fetch asks from just after the newest snapshot and arrives
	// diagnosed: Update only pushes frames.
	feed := m.node.feed
	newest := feed.last
	tick, ok := findTick(opened)
	if !ok {
		t.Fatal("opening the node scheduled no fetch")
	}
	if !tick.since.Equal(newest.Add(time.Millisecond)) {
		t.Errorf("next fetch from %v, want just after %v", tick.since, newest)
	}
	fetch := step(tick)
	if fetch == nil {
		t.Fatal("the tick did not fetch")
	}
	later := fetch().(nodeMsg)
	if len(later.frames) != 5 || !later.frames[0].Snapshot.Time.After(newest) || feed.last.Equal(newest) {
		t.Fatalf("later fetch: %d frames from %v (newest before %v)", len(later.frames), later.frames[0].Snapshot.Time, newest)
	}
	step(later)
	step(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b")})
	if m.node != nil || !strings.Contains(m.View(), "gpu-b") {
		t.Errorf("b did not return to the fleet")
	}
	// An answer for the node closed since changes nothing.
	if step(later); m.node != nil {
		t.Error("a late answer reopened a closed node")
	}
}

// findTick runs what a step scheduled, as Bubble Tea would (a tea.Tick
// waits its interval first), until the node's tick comes out.
func findTick(cmd tea.Cmd) (nodeTickMsg, bool) {
	if cmd == nil {
		return nodeTickMsg{}, false
	}
	switch msg := cmd().(type) {
	case nodeTickMsg:
		return msg, true
	case tea.BatchMsg:
		for _, c := range msg {
			if t, ok := findTick(c); ok {
				return t, true
			}
		}
	}
	return nodeTickMsg{}, false
}
