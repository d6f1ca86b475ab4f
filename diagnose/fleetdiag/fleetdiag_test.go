package fleetdiag

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

func gpus(utils ...float64) []fleetsnap.GPU {
	var out []fleetsnap.GPU
	for i, u := range utils {
		out = append(out, fleetsnap.GPU{Index: i, Util: sampler.Some(u), MemUsed: sampler.Some(50 << 30), MemTotal: sampler.Some(80 << 30)})
	}
	return out
}

func TestCountsAndFleetFindings(t *testing.T) {
	idle := gpus(0, 0, 95)
	idle[0].IdleHeldLong, idle[1].IdleHeldLong = true, true
	xid := gpus(50)
	xid[0].Xid = true
	f := fleetsnap.Fleet{Nodes: []fleetsnap.Node{
		{Name: "a", Up: true, GPUs: idle},
		{Name: "b", Up: true, GPUs: xid},
		{Name: "c", Up: false, GPUs: gpus(0, 0)}, // down: its zeros are not idleness
	}}
	c := Count(f)
	if c != (Counts{Nodes: 3, NodesUp: 2, NodesDown: 1, GPUs: 6, Busy: 2, Idle: 2, Down: 2}) {
		t.Errorf("counts %+v", c)
	}
	got := Fleet(f, 30*time.Minute)
	var titles []string
	for _, fd := range got {
		titles = append(titles, fd.Title+" "+strings.Join(fd.Nodes, ","))
	}
	all := strings.Join(titles, "\n")
	for _, want := range []string{"Xid errors in the last hour on 1 node (gpuscope explain xid_error) b (GPU 0)", "1 exporter down: their GPUs are unknown, not idle c",
		"2 GPUs on 1 node idle while holding memory for > 30 min (gpuscope explain memory_idle_held) a"} {
		if !strings.Contains(all, want) {
			t.Errorf("findings:\n%s\nwant %q", all, want)
		}
	}
	if got[0].Severity != diagnose.Critical {
		t.Errorf("worst first: %+v", got[0])
	}
}

// A gpuscope exporter's findings are taken as they are; a dcgm-only node
// is diagnosed from its history and names the rules it could not run.
func TestNodeDiagnosisSource(t *testing.T) {
	own := Node(fleetsnap.Node{Gpuscope: true, Findings: []fleetsnap.Finding{{Rule: "input_starved", Severity: "warning", GPU: 0, PID: 7}}}, nil)
	if len(own.Findings) != 1 || own.Findings[0].Severity != diagnose.Warning || own.Findings[0].PID != 7 || len(own.NeedsHost) != 0 {
		t.Errorf("gpuscope node: %+v", own)
	}
	var hist []sampler.Snapshot
	for i := range 60 {
		g := sampler.GPU{Index: 0, Util: sampler.Some(100), Temp: sampler.Some(92), SMClock: sampler.Some(1100), SMClockMax: sampler.Some(1980),
			ClockEvents: sampler.ClockEvents{Mask: sampler.ClockHwThermal | sampler.ClockSwThermal, OK: true},
			MemUsed:     sampler.Some(10 << 30), MemTotal: sampler.Some(80 << 30), Power: sampler.Some(300), PowerLimit: sampler.Some(700)}
		hist = append(hist, sampler.Snapshot{Time: time.Unix(1_800_000_000, 0).Add(time.Duration(i) * 2 * time.Second), GPUs: []sampler.GPU{g}})
	}
	dcgm := Node(fleetsnap.Node{Up: true}, hist)
	found := false
	for _, f := range dcgm.Findings {
		found = found || f.Rule == "thermal_throttle"
	}
	if !found || len(dcgm.NeedsHost) == 0 || dcgm.From != "rules over its dcgm-exporter series" {
		t.Errorf("dcgm node: %+v", dcgm)
	}
}
