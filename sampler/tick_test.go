package sampler

import (
	"strings"
	"testing"
	"time"
)

// panicky is a GPU and host source that panics where it is told to.
type panicky struct{ in string }

func (p panicky) Node() Node {
	if p.in == "node" {
		panic("node")
	}
	return Node{Driver: "550"}
}

func (p panicky) Sample(time.Time) ([]GPU, []string) {
	if p.in == "sample" {
		panic("sample")
	}
	return []GPU{{Index: 0, Procs: []GPUProc{{PID: 7}, {PID: 999}}}}, nil
}

func (p panicky) Topology() *Topology {
	if p.in == "topology" {
		var m map[string]int
		m["write to nil map"] = 1 // a runtime error, not only panic()
	}
	return nil
}

func (p panicky) Close() error { return nil }

type panickyHost struct{ panics bool }

func (h panickyHost) Sample(_ time.Time, pids []int) (*Host, error) {
	if h.panics {
		var procs []int
		_ = procs[len(pids)+3] // index out of range
	}
	// PID 999 vanished between NVML's list and /proc: not in Procs.
	return &Host{Procs: map[int]*Proc{7: {PID: 7, Cmdline: "python"}}}, nil
}

// TestTickRecoversEveryPanic: a panic in any source is recovered in Tick
// itself, said in Problems, and the rest of the snapshot is still filled.
func TestTickRecoversEveryPanic(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in, want string
		host     bool
	}{
		{"node", "GPU source panicked", false},
		{"sample", "GPU source panicked", false},
		{"topology", "GPU source panicked", false},
		{"", "host source panicked", true},
	} {
		s := &Sampler{GPU: panicky{c.in}, Host: panickyHost{c.host}, Hostname: "n1"}
		var snap Snapshot
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s: Tick let a panic out: %v", c.want, r)
				}
			}()
			snap = s.Tick(now)
		}()
		if len(snap.Problems) != 1 || !strings.HasPrefix(snap.Problems[0], c.want) {
			t.Errorf("panic in %q/host %v: problems %q", c.in, c.host, snap.Problems)
		}
		if snap.Node.Hostname != "n1" || snap.Time != now {
			t.Errorf("snapshot not filled after a panic: %+v", snap.Node)
		}
	}
}

// TestTickJoinsWhatRemains: a GPU process whose host entry vanished keeps
// its NVML data with no host side, and the others are joined.
func TestTickJoinsWhatRemains(t *testing.T) {
	s := &Sampler{GPU: panicky{}, Host: panickyHost{}}
	snap := s.Tick(time.Now())
	procs := snap.GPUs[0].Procs
	if procs[0].Host == nil || procs[0].Host.Cmdline != "python" || procs[1].Host != nil || len(snap.Problems) != 0 {
		t.Fatalf("procs %+v, problems %q", procs, snap.Problems)
	}
}
