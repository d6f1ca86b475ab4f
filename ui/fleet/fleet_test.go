package fleet

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

func testView() View {
	g := func(i int, u float64) fleetsnap.GPU {
		return fleetsnap.GPU{Index: i, Util: sampler.Some(u), MemUsed: sampler.Some(40 << 30), MemTotal: sampler.Some(80 << 30)}
	}
	busy := fleetsnap.Node{Key: fleetsnap.NodeKey{Job: "j", Instance: "a:9400"}, Name: "gpu-a", Up: true, Gpuscope: true,
		GPUs: []fleetsnap.GPU{g(0, 100), g(1, 0), {Index: 2}}, WasteGPUHours: 0.5, EnergyKWh: 4.2,
		Findings: []fleetsnap.Finding{{Rule: "input_starved", Severity: "warning", GPU: 0}}}
	down := fleetsnap.Node{Key: fleetsnap.NodeKey{Job: "j", Instance: "b:9400"}, Name: "gpu-b", GPUs: []fleetsnap.GPU{g(0, 0), g(1, 0)}}
	f := fleetsnap.Fleet{Nodes: []fleetsnap.Node{busy, down}}
	return NewView("http://prom:9090", f, 30*time.Minute, map[fleetsnap.NodeKey]fleetdiag.NodeResult{
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
		"  0.5 h    4.2 kWh  input_starved(GPU 0)",
		"gpu-b        ××       DOWN (target b:9400)",
		"▲ 1 exporter down: their GPUs are unknown, not idle: gpu-b",
		"▲ gpu-a                GPU 0 input_starved (the node's gpuscope exporter)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// TestWriteTextChinese: the same fleet in Chinese: the summary, the
// columns (in cells: 节点 is four), a down node, the fleet finding from its
// message and where a node's findings came from.
func TestWriteTextChinese(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTextLang(&b, testView(), i18n.For("zh")); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"2 个节点：1 个在线，1 个下线 · 5 张 GPU：1 张忙，2 张空闲，2 张下线",
		"节点         GPU         忙碌     显存   浪费 1h    能耗 1h  诊断",
		"gpu-b        ××       下线（target b:9400）",
		"▲ 1 个 exporter 下线：它们的 GPU 状态未知，不等于空闲: gpu-b",
		"(来自节点上的 gpuscope exporter)",
		"集群级诊断", "节点诊断",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	// The columns start where the English ones do, cell for cell.
	var en bytes.Buffer
	_ = WriteText(&en, testView())
	zhHead, enHead := strings.Split(out, "\n")[1], strings.Split(en.String(), "\n")[1]
	if ansi.StringWidth(zhHead)-ansi.StringWidth("诊断") != ansi.StringWidth(enHead)-ansi.StringWidth("FINDINGS") {
		t.Errorf("Chinese header is %d cells, English %d:\n%s\n%s", ansi.StringWidth(zhHead), ansi.StringWidth(enHead), zhHead, enHead)
	}
}

func TestCellShades(t *testing.T) {
	for _, c := range []struct {
		util float64
		ok   bool
		up   bool
		want rune
	}{{0, true, true, '▁'}, {49, true, true, '▄'}, {100, true, true, '█'}, {0, false, true, '·'}, {100, true, false, '×'}} {
		g := fleetsnap.GPU{Util: sampler.Metric{V: c.util, OK: c.ok}}
		if got := Cell(g, c.up); got != c.want {
			t.Errorf("util %v ok %v up %v: %q, want %q", c.util, c.ok, c.up, got, c.want)
		}
	}
	_ = diagnose.Warning
}

// TestFleetNamesWhole: --once prints a long node name whole (it is pasted),
// the dashboard too where the row has room (200 columns), and a CJK name
// keeps the columns aligned in cells.
func TestFleetNamesWhole(t *testing.T) {
	v := testView()
	long := "gpu-node-rack17-slot04.training.cluster.example.internal"
	v.Fleet.Nodes[0].Name = long
	v.Fleet.Nodes[1].Name = "节点乙"
	var b bytes.Buffer
	if err := WriteText(&b, v); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, long+" █▁·") {
		t.Errorf("--once cut the node name:\n%s", out)
	}
	var at []int
	for _, l := range strings.Split(out, "\n") {
		for _, cell := range []string{"█▁·", "××"} {
			if i := strings.Index(l, cell); i > 0 && !strings.HasPrefix(l, "▲") {
				at = append(at, ansi.StringWidth(l[:i]))
			}
		}
	}
	if len(at) != 2 || at[0] != at[1] {
		t.Errorf("the GPU cells start at cells %v:\n%s", at, out)
	}
	if w := nameWidth(v.Fleet, 200-2-rowFixed-20); w != len(long) {
		t.Errorf("at 200 columns the name column is %d cells, want %d", w, len(long))
	}
	if w := nameWidth(v.Fleet, 80-2-rowFixed-20); w != 12 {
		t.Errorf("at 80 columns the name column is %d cells, want 12", w)
	}
	if got := nameCell("节点乙节点乙节点乙", 12); ansi.StringWidth(got) != 12 || !strings.Contains(got, "节点…") {
		t.Errorf("a CJK name cut to 12 cells: %q", got)
	}
}
