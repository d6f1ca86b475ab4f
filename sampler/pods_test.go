package sampler

import (
	"testing"
	"time"
)

// TestAttributePods: a GPU process and its workers in the same container get
// the pod the kubelet allocated the GPU to; a child in another container
// (a sidecar the trainer spawned with its own cgroup) and a process on an
// unallocated GPU stay unnamed; a MIG instance's own allocation wins.
func TestAttributePods(t *testing.T) {
	train := Pod{Namespace: "ml", Name: "train-0", Container: "trainer"}
	serve := Pod{Namespace: "inf", Name: "vllm-0", Container: "vllm"}
	host := &Host{Procs: map[int]*Proc{
		10: {PID: 10, Container: "aaaaaaaaaaaa", Children: []int{11, 12}},
		11: {PID: 11, Container: "aaaaaaaaaaaa", Children: []int{13}},
		12: {PID: 12, Container: "bbbbbbbbbbbb"},
		13: {PID: 13, Container: "aaaaaaaaaaaa", Children: []int{11}}, // a loop: bounded
		20: {PID: 20},
		30: {PID: 30},
		40: {PID: 40},
	}}
	snap := Snapshot{Host: host, GPUs: []GPU{
		{UUID: "GPU-a", Procs: []GPUProc{{PID: 10}}},
		{UUID: "GPU-b", Procs: []GPUProc{{PID: 20}}},
		{UUID: "GPU-c", MIGDevices: []MIGDevice{
			{UUID: "MIG-1", Procs: []GPUProc{{PID: 30}}},
			{UUID: "MIG-2", Procs: []GPUProc{{PID: 40}}},
		}},
	}}
	JoinProcs(&snap)
	pods := map[string]Pod{"GPU-a": train, "GPU-c": train, "MIG-1": serve}
	AttributePods(&snap, func(id string) (Pod, bool) { p, ok := pods[id]; return p, ok })
	for pid, want := range map[int]Pod{10: train, 11: train, 13: train, 12: {}, 20: {}, 30: serve, 40: train} {
		if got := host.Procs[pid].Pod; got != want {
			t.Errorf("pid %d: pod %+v, want %+v", pid, got, want)
		}
	}
	for i, want := range []Pod{train, {}, train} {
		if got := snap.GPUs[i].Pod; got != want {
			t.Errorf("GPU %d: pod %+v, want %+v", i, got, want)
		}
	}
	// Without a host reading the GPUs are still named: the exporter labels
	// a GPU with its pod whether or not processes were read.
	bare := Snapshot{GPUs: []GPU{{UUID: "GPU-a"}}}
	AttributePods(&bare, func(id string) (Pod, bool) { p, ok := pods[id]; return p, ok })
	if bare.GPUs[0].Pod != train {
		t.Errorf("no host: GPU pod %+v, want %+v", bare.GPUs[0].Pod, train)
	}
}

// TestTickAttributesPods: Tick runs the attribution with the sampler's PodOf.
func TestTickAttributesPods(t *testing.T) {
	pod := Pod{Namespace: "ml", Name: "p", Container: "c"}
	s := &Sampler{GPU: panicky{}, Host: panickyHost{}, PodOf: func(string) (Pod, bool) { return pod, true }}
	snap := s.Tick(time.Unix(0, 0))
	if got := snap.Host.Procs[7].Pod; got != pod {
		t.Errorf("pod %+v, want %+v", got, pod)
	}
}
