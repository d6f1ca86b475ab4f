package node

import (
	"encoding/json"
	"strings"
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

// TestDemoPods: the mixed demo's inference server runs in a Kubernetes pod
// (named through Sampler.PodOf, as the kubelet would), its notebook in a
// docker container (an id from the cgroup, no pod); a scenario off
// Kubernetes names no pod.
func TestDemoPods(t *testing.T) {
	d, err := NewDemo("mixed", 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	snap := d.Sampler("mixed").Tick(t0)
	server := snap.GPUs[3].Procs[0].Host
	if server == nil || server.Pod.Namespace != "inference" || server.Pod.Container != "vllm" ||
		!strings.HasPrefix(server.Pod.Name, "vllm-") || len(server.Container) != 12 || len(server.PodUID) != 36 {
		t.Errorf("server %+v", server)
	}
	kernel := snap.GPUs[2].Procs[0].Host
	if kernel == nil || kernel.Container == "" || kernel.PodUID != "" || kernel.Pod != (sampler.Pod{}) {
		t.Errorf("notebook kernel %+v", kernel)
	}
	if lab := snap.Host.Procs[kernel.PPID]; lab == nil || lab.Container != kernel.Container {
		t.Errorf("jupyter-lab %+v not in its kernel's container %q", lab, kernel.Container)
	}
	if p := snap.GPUs[0].Procs[0].Host; p.Container != "" || p.Pod != (sampler.Pod{}) {
		t.Errorf("the trainer is in a container: %+v", p)
	}

	h, err := NewDemo("healthy", 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range h.Sampler("healthy").Tick(t0).Host.Procs {
		if p.Pod != (sampler.Pod{}) || p.Container != "" {
			t.Errorf("healthy: pid %d in %+v / %q", p.PID, p.Pod, p.Container)
		}
	}
}
