package spool

import (
	"fmt"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// BenchmarkSpool is a replay's spool of 1,024 snapshots of 8 GPUs with
// 4 processes each: written in 8 deflated blocks, then each block read
// back once (docs/benchmarks.md, "The binary's size: text/template's
// methods", step 3).
func BenchmarkSpool(b *testing.B) {
	snaps := make([]sampler.Snapshot, 1024)
	for i := range snaps {
		s := snap(i)
		s.GPUs = s.GPUs[:0]
		for g := range 8 {
			gpu := sampler.GPU{Index: g, UUID: fmt.Sprintf("GPU-%d", g), Name: "NVIDIA H200",
				Util: sampler.Some(float64((i + g) % 100)), Power: sampler.Some(300 + float64(i%50))}
			for p := range 4 {
				gpu.Procs = append(gpu.Procs, sampler.GPUProc{PID: 1000 + 10*g + p, Type: "C", MemUsed: sampler.Some(float64(int64(1+p) << 30)), SMUtil: sampler.Some(float64(p * 20))})
			}
			s.GPUs = append(s.GPUs, gpu)
		}
		snaps[i] = s
	}
	dir := b.TempDir()
	for b.Loop() {
		sp, err := New(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range snaps {
			if err := sp.Add(s); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := sp.Finish(); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < sp.Len(); i += BlockLen {
			_ = sp.At(i)
		}
		sp.Close()
	}
}
