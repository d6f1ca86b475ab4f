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
	"github.com/gpuscope/gpuscope/ui/uitest"
)

// orderView is four nodes whose orders all differ: c wastes most, a is the
// busiest, d holds most memory, b is down.
func orderView() View {
	g := func(u, memGiB float64) fleetsnap.GPU {
		return fleetsnap.GPU{Util: sampler.Some(u), MemUsed: sampler.Some(memGiB * (1 << 30)), MemTotal: sampler.Some(80 << 30)}
	}
	node := func(name string, up bool, waste float64, gpus ...fleetsnap.GPU) fleetsnap.Node {
		return fleetsnap.Node{Key: fleetsnap.NodeKey{Job: "gpu", Instance: name + ":9400"}, Name: name, Up: up, GPUs: gpus, WasteGPUHours: waste}
	}
	a := node("gpu-a", true, 0.1, g(100, 70), g(90, 70))
	b := node("gpu-b", false, 0, g(0, 0))
	c := node("gpu-c", true, 1.5, g(0, 40), g(0, 40))
	c.Findings = []fleetsnap.Finding{{Rule: "memory_idle_held", Severity: "warning"}}
	d := node("gpu-d", true, 0.8, g(40, 79), g(60, 79))
	d.GPUs[0].Namespace, d.GPUs[0].Pod = "ml", "train-7"
	return NewView("http://prom:9090", fleetsnap.Fleet{Nodes: []fleetsnap.Node{c, d, a, b}}, 30*time.Minute, nil)
}

func orderModel(t *testing.T) Model {
	t.Helper()
	st, _ := themes.Build("mono", false)
	v := orderView()
	m := New(Options{Styles: st, Interval: time.Second, Load: func(context.Context) (View, error) { return v, nil }})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	next, _ = next.(Model).Update(m.Init()())
	return next.(Model)
}

func press(m Model, keys ...string) Model { return uitest.Press(m, keys...) }

func names(m Model) string {
	var out []string
	for _, n := range m.rows() {
		out = append(out, strings.TrimPrefix(n.Name, "gpu-"))
	}
	return strings.Join(out, "")
}

// s cycles waste → name → util → memory → findings → waste; S reverses;
// a down node stays last in every order but name.
func TestFleetSort(t *testing.T) {
	m := orderModel(t)
	for _, step := range []struct{ key, want, label string }{
		{"", "cdab", "waste ▼"},
		{"s", "abcd", "name ▲"},
		{"S", "dcba", "name ▼"},
		{"s", "cdab", "util ▲"}, // least busy first
		{"S", "adcb", "util ▼"},
		{"s", "dacb", "memory ▼"},
		{"s", "cadb", "findings ▼"},
		{"s", "cdab", "waste ▼"},
	} {
		if step.key != "" {
			m = press(m, step.key)
		}
		if got := names(m); got != step.want {
			t.Errorf("after %q: rows %s, want %s", step.key, got, step.want)
		}
		if v := m.View(); !strings.Contains(v, "s sort ("+step.label+")") {
			t.Errorf("after %q: hints lack %q:\n%s", step.key, step.label, v)
		}
	}
}

// / filters on name, instance, pod, namespace, rule or "down"; q typed
// into it is text; enter keeps it, esc clears it; enter on a row opens the
// row shown, not the fleet's n-th node.
func TestFleetFilter(t *testing.T) {
	m := orderModel(t)
	for _, tt := range []struct{ filter, want string }{
		{"gpu-d", "d"}, {"train-7", "d"}, {"ml/", "d"}, {"idle_held", "c"}, {"down", "b"}, {"b:9400", "b"}, {"GPU", "cdab"}, {"nothing", ""},
	} {
		keys := []string{"/"}
		for _, r := range tt.filter {
			keys = append(keys, string(r))
		}
		fm := press(m, append(keys, "enter")...)
		if got := names(fm); got != tt.want {
			t.Errorf("filter %q: rows %q, want %q", tt.filter, got, tt.want)
		}
		v := fm.View()
		if !strings.Contains(v, "filter: "+tt.filter) {
			t.Errorf("filter %q not shown:\n%s", tt.filter, v)
		}
		if tt.want == "" && !strings.Contains(v, "no node matches") {
			t.Errorf("an empty result does not say so:\n%s", v)
		}
	}
	typing := press(m, "/", "q")
	if typing.order.filter.Value() != "q" || !typing.order.filtering {
		t.Errorf("q while typing: filter %q", typing.order.filter.Value())
	}
	if cleared := press(typing, "esc"); cleared.order.filter.Value() != "" || names(cleared) != "cdab" {
		t.Errorf("esc left %q, rows %s", cleared.order.filter.Value(), names(cleared))
	}

	var asked fleetsnap.NodeKey
	m.opts.History = func(_ context.Context, key fleetsnap.NodeKey, _ time.Time) ([]sampler.Snapshot, error) {
		asked = key
		return nil, nil
	}
	fm := press(m, "/", "t", "r", "a", "i", "n", "enter") // gpu-d only: its pod train-7
	_, cmd := fm.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter on the filtered row asked nothing")
	}
	cmd()
	if asked.Instance != "gpu-d:9400" {
		t.Errorf("enter opened %+v, want gpu-d", asked)
	}
}
