package fleet

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/promsource"
)

func testView() View {
	g := func(i int, u float64) promsource.GPU {
		return promsource.GPU{Index: i, Util: sampler.Some(u), MemUsed: sampler.Some(40 << 30), MemTotal: sampler.Some(80 << 30)}
	}
	busy := promsource.Node{Key: promsource.NodeKey{Job: "j", Instance: "a:9400"}, Name: "gpu-a", Up: true, Gpuscope: true,
		GPUs: []promsource.GPU{g(0, 100), g(1, 0), {Index: 2}}, WasteGPUHours: 0.5,
		Findings: []promsource.Finding{{Rule: "input_starved", Severity: "warning", GPU: 0}}}
	down := promsource.Node{Key: promsource.NodeKey{Job: "j", Instance: "b:9400"}, Name: "gpu-b", GPUs: []promsource.GPU{g(0, 0), g(1, 0)}}
	f := promsource.Fleet{Nodes: []promsource.Node{busy, down}}
	return NewView("http://prom:9090", f, 30*time.Minute, map[promsource.NodeKey]fleetdiag.NodeResult{
		busy.Key: fleetdiag.Node(busy, nil),
	})
}

// One row per node, one cell per GPU: █ busy, ▁ idle, · unknown, × down;
// a down node says so instead of showing idle GPUs.
func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, testView()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"2 nodes: 1 up, 1 down · 5 GPUs: 1 busy, 2 idle, 2 down",
		"gpu-a        █▁·",
		"input_starved(GPU 0)",
		"gpu-b        ××       DOWN (target b:9400)",
		"▲ 1 exporter down: their GPUs are unknown, not idle: gpu-b",
		"▲ gpu-a                GPU 0 input_starved (the node's gpuscope exporter)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestCellShades(t *testing.T) {
	for _, c := range []struct {
		util float64
		ok   bool
		up   bool
		want rune
	}{{0, true, true, '▁'}, {49, true, true, '▄'}, {100, true, true, '█'}, {0, false, true, '·'}, {100, true, false, '×'}} {
		g := promsource.GPU{Util: sampler.Metric{V: c.util, OK: c.ok}}
		if got := Cell(g, c.up); got != c.want {
			t.Errorf("util %v ok %v up %v: %q, want %q", c.util, c.ok, c.up, got, c.want)
		}
	}
	_ = diagnose.Warning
}
