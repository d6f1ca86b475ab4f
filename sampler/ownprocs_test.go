package sampler

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// ownGPUs lists host PIDs 4242 and 4243 on a GPU and a MIG instance.
type ownGPUs struct{}

func (ownGPUs) Node() Node { return Node{} }
func (ownGPUs) Sample(time.Time) ([]GPU, []string) {
	return []GPU{
		{UUID: "GPU-a", Procs: []GPUProc{{PID: 4242}}},
		{UUID: "GPU-b", MIGDevices: []MIGDevice{{UUID: "MIG-b1", Procs: []GPUProc{{PID: 4243}}}}},
	}, nil
}
func (ownGPUs) Topology() *Topology { return nil }
func (ownGPUs) Close() error        { return nil }

type fakeOwn struct {
	needed bool
	err    error
	asked  *[]int
	none   bool // answers no process
}

func (f fakeOwn) Where() string { return "/run/gpuscope/procs.sock" }
func (f fakeOwn) Needed(pids []int) bool {
	*f.asked = pids
	return f.needed
}
func (f fakeOwn) GPUProcs(time.Time) (map[string][]GPUProc, error) {
	if f.none {
		return nil, nil
	}
	return map[string][]GPUProc{"GPU-a": {{PID: 1, Type: "C"}}, "MIG-b1": {{PID: 12}}}, f.err
}

// The host source is asked about the PIDs the socket gave, the container's.
type pidsHost struct{ got *[]int }

func (h pidsHost) Sample(_ time.Time, pids []int) (*Host, error) {
	*h.got = pids
	return &Host{Procs: map[int]*Proc{1: {PID: 1, Cmdline: "python train.py"}}}, nil
}

func TestTickTakesTheContainersOwnProcesses(t *testing.T) {
	var asked, hostGot []int
	s := &Sampler{GPU: ownGPUs{}, Host: pidsHost{&hostGot}, Procs: fakeOwn{needed: true, asked: &asked}}
	snap := s.Tick(time.Now())
	if !slices.Equal(asked, []int{4242, 4243}) {
		t.Errorf("Needed was asked about %v, want NVML's PIDs with the MIG instance's", asked)
	}
	a, mig := snap.GPUs[0].Procs, snap.GPUs[1].MIGDevices[0].Procs
	if len(a) != 1 || a[0].PID != 1 || a[0].Host == nil || a[0].Host.Cmdline != "python train.py" || len(mig) != 1 || mig[0].PID != 12 {
		t.Errorf("procs %+v and %+v, want the socket's PIDs joined with this namespace's host data", a, mig)
	}
	if snap.Node.ProcsFrom != "/run/gpuscope/procs.sock" || !slices.Equal(hostGot, []int{1}) {
		t.Errorf("ProcsFrom %q, host asked about %v", snap.Node.ProcsFrom, hostGot)
	}

	snap = (&Sampler{GPU: ownGPUs{}, Procs: fakeOwn{needed: false, asked: &asked}}).Tick(time.Now())
	if snap.GPUs[0].Procs[0].PID != 4242 || snap.Node.ProcsFrom != "" {
		t.Errorf("not needed, yet NVML's list was replaced: %+v %q", snap.GPUs[0].Procs, snap.Node.ProcsFrom)
	}

	snap = (&Sampler{GPU: ownGPUs{}, Procs: fakeOwn{needed: true, err: errors.New("connection refused"), asked: &asked}}).Tick(time.Now())
	if snap.GPUs[0].Procs[0].PID != 4242 || snap.Node.ProcsFrom != "" || len(snap.Problems) != 1 ||
		!strings.Contains(snap.Problems[0], "processes from /run/gpuscope/procs.sock: connection refused") {
		t.Errorf("a failed answer: procs %+v, from %q, problems %q; want NVML's list and the failure said", snap.GPUs[0].Procs, snap.Node.ProcsFrom, snap.Problems)
	}
}

// noProcs is a GPU on which NVML lists no process.
type noProcs struct{ ownGPUs }

func (noProcs) Sample(time.Time) ([]GPU, []string) { return []GPU{{UUID: "GPU-a"}}, nil }

// NVML lists none and the socket none: nothing is claimed; the socket
// lists some: they are shown, and said to be from it.
func TestTickClaimsTheSocketOnlyWhereItAnswered(t *testing.T) {
	var asked []int
	snap := (&Sampler{GPU: noProcs{}, Procs: fakeOwn{needed: true, none: true, asked: &asked}}).Tick(time.Now())
	if snap.Node.ProcsFrom != "" || len(snap.GPUs[0].Procs) != 0 {
		t.Errorf("an empty answer to an empty list claimed: %q %+v", snap.Node.ProcsFrom, snap.GPUs[0].Procs)
	}
	snap = (&Sampler{GPU: noProcs{}, Procs: fakeOwn{needed: true, asked: &asked}}).Tick(time.Now())
	if snap.Node.ProcsFrom == "" || len(snap.GPUs[0].Procs) != 1 || snap.GPUs[0].Procs[0].PID != 1 {
		t.Errorf("NVML listed none, the socket one: %q %+v", snap.Node.ProcsFrom, snap.GPUs[0].Procs)
	}
}
