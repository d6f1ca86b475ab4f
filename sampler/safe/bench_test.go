package safe

import (
	"fmt"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// benchSnapshot is an 8-GPU node with 100 host processes, 2 per GPU on the
// GPUs, every string clean (the common case) unless one is made hostile.
func benchSnapshot(hostile bool) sampler.Snapshot {
	s := sampler.Snapshot{Node: sampler.Node{Hostname: "gpu-node-17", Driver: "550.54.15", CUDA: "12.4", Source: "nvml"},
		Host: &sampler.Host{Procs: map[int]*sampler.Proc{}, CPUs: make([]float64, 112)}}
	for pid := 1000; pid < 1100; pid++ {
		s.Host.Procs[pid] = &sampler.Proc{PID: pid, User: "alice", Name: "python", Cmdline: fmt.Sprintf("python train.py --rank %d --config cfg/resnet50.yaml", pid), State: "R"}
	}
	if hostile {
		s.Host.Procs[1050].Cmdline = "python \x1b]0;PWNED\a"
	}
	for g := range 8 {
		gpu := sampler.GPU{Index: g, Name: "NVIDIA H200", UUID: fmt.Sprintf("GPU-%08d", g), BusID: "00000000:18:00.0", Arch: "Hopper",
			NA: map[string]string{"fan": "not supported"}, NVLinks: make([]sampler.NVLink, 18)}
		for p := range 2 {
			pid := 1000 + g*2 + p
			gpu.Procs = append(gpu.Procs, sampler.GPUProc{PID: pid, Type: "C", Host: s.Host.Procs[pid]})
		}
		s.GPUs = append(s.GPUs, gpu)
	}
	return s
}

// BenchmarkClean is what the dashboard pays per snapshot (ui.Model.Push)
// to make outside strings safe (docs/benchmarks.md).
func BenchmarkClean(b *testing.B) {
	for _, hostile := range []bool{false, true} {
		s := benchSnapshot(hostile)
		b.Run(fmt.Sprintf("hostile=%v", hostile), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Clean(s)
			}
		})
		b.Run(fmt.Sprintf("hostile=%v/types-kept", hostile), func(b *testing.B) {
			b.ReportAllocs()
			ts := NewTypes()
			for b.Loop() {
				_ = CleanWith(ts, s)
			}
		})
	}
}

// nextTick is s as the sampler's next tick at --interval 100ms hands it
// to the dashboard: a new GPU slice and new process lists, the NVML
// reader's NVLinks and n/a reasons and the host's processes shared with
// s, the host reading itself left out (ui.Model.Push draws a shared one
// from its earlier escaping).
func nextTick(s sampler.Snapshot) sampler.Snapshot {
	s.GPUs = append([]sampler.GPU(nil), s.GPUs...)
	for i := range s.GPUs {
		s.GPUs[i].Procs = append([]sampler.GPUProc(nil), s.GPUs[i].Procs...)
	}
	s.Host = nil
	return s
}

// BenchmarkCleanTick is CleanWith of one snapshot after another, as the
// dashboard cleans them at --interval 100ms: what the snapshot before
// shared with it is answered from the memo.
func BenchmarkCleanTick(b *testing.B) {
	s := benchSnapshot(false)
	ts := NewTypes()
	_ = CleanWith(ts, s)
	b.ReportAllocs()
	for b.Loop() {
		_ = CleanWith(ts, nextTick(s))
	}
}
