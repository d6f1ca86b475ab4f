package node

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// The demo runs the production NVML reader over the simulator: every GPU has
// identity, readings and (after the second tick) GPM, and the host has the
// training process with its DataLoader workers.
func TestDemoReadsThroughNVML(t *testing.T) {
	d, err := NewDemo("healthy", 3, t0)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Sampler("healthy")
	s.Tick(t0)
	snap := s.Tick(t0.Add(time.Second))
	if len(snap.GPUs) != GPUs || snap.Node.Source != "demo:healthy" || snap.Node.Driver == "" {
		t.Fatalf("node %+v with %d GPUs", snap.Node, len(snap.GPUs))
	}
	for _, g := range snap.GPUs {
		if g.Name == "" || g.UUID == "" || !g.Util.OK || !g.SMActive.OK || !g.Power.OK {
			t.Errorf("GPU %d incomplete: name %q util %+v sm %+v power %+v", g.Index, g.Name, g.Util, g.SMActive, g.Power)
		}
		if len(g.Procs) == 0 || g.Procs[0].Host == nil || len(g.Procs[0].Host.Children) == 0 {
			t.Errorf("GPU %d: training process with workers not joined: %+v", g.Index, g.Procs)
		}
	}
	if snap.Topology == nil || snap.Topology.Links[0][1] != "NV18" {
		t.Errorf("topology %+v", snap.Topology)
	}
}

// Same scenario, seed and clock: the same snapshots, byte for byte.
func TestDemoDeterministic(t *testing.T) {
	run := func() string {
		d, err := NewDemo("mixed", 9, t0)
		if err != nil {
			t.Fatal(err)
		}
		snaps := sampler.Preroll(d.Sampler("mixed"), t0, t0.Add(10*time.Second), time.Second)
		b, _ := json.Marshal(snaps)
		return string(b)
	}
	if a, b := run(), run(); a != b {
		t.Fatal("two runs of the same demo differ")
	}
}

func TestDemoUnknownScenario(t *testing.T) {
	if _, err := NewDemo("nosuch", 1, t0); err == nil {
		t.Fatal("unknown scenario must fail")
	}
}

// This machine has no NVIDIA driver: Live still returns a sampler (host
// only) and says what was tried.
func TestLiveWithoutDriverExplains(t *testing.T) {
	s, ok := Live()
	if ok {
		t.Skip("an NVIDIA driver is present")
	}
	if s.GPUError == nil || s.GPUError.Tried == "" || len(s.GPUError.Causes) == 0 {
		t.Fatalf("no explanation: %+v", s.GPUError)
	}
	snap := s.Tick(time.Now())
	if snap.Host == nil || len(snap.GPUs) != 0 || snap.Node.GPUError == nil {
		t.Fatalf("host-only snapshot expected: host %v, %d GPUs", snap.Host != nil, len(snap.GPUs))
	}
}
