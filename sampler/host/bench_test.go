package host

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// Shape of the benchmark box: the host budget is for ~1,000 processes
// (docs/benchmarks.md, Summary);
// 8 GPU processes with 4 DataLoader workers each, the rest idle sleeps.
const (
	benchGPUProcs   = 8
	benchWorkers    = 4
	benchTotalProcs = 1000
)

// spawnBenchBox starts the benchmark's processes (killed when b ends) and
// returns the GPU processes' PIDs once every process exists.
func spawnBenchBox(b *testing.B) []int {
	b.Helper()
	before := countProcs(b)
	var gpuPIDs []int
	for range benchGPUProcs {
		gpuPIDs = append(gpuPIDs, startTree(b, "for i in 1 2 3 4; do sleep 600 & done; wait"))
	}
	filler := benchTotalProcs - benchGPUProcs*(1+benchWorkers) - 1
	startTree(b, "i=0; while [ $i -lt "+strconv.Itoa(filler)+" ]; do sleep 600 & i=$((i+1)); done; wait")
	want := before + benchTotalProcs
	for deadline := time.Now().Add(60 * time.Second); countProcs(b) < want; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatalf("only %d of %d processes after 60 s", countProcs(b), want)
		}
	}
	return gpuPIDs
}

func countProcs(b *testing.B) int {
	names, err := os.ReadDir("/proc")
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, e := range names {
		if _, ok := atoiPID(e.Name()); ok {
			n++
		}
	}
	return n
}

// BenchmarkSample measures one host tick on a box with ~1,000 processes, and
// (sub-benchmarks) the ways of finding parent PIDs that were considered.
func BenchmarkSample(b *testing.B) {
	gpuPIDs := spawnBenchBox(b)
	b.Logf("processes on the box: %d", countProcs(b))

	b.Run("tick", func(b *testing.B) {
		src := New(Options{})
		now := time.Now()
		for b.Loop() {
			now = now.Add(time.Second)
			h, err := src.Sample(now, gpuPIDs)
			if err != nil || len(h.Procs) != benchGPUProcs*(1+benchWorkers) {
				b.Fatalf("Sample: %d procs, %v", len(h.Procs), err)
			}
		}
	})
	// Finding parent PIDs: the tree kept across ticks (what Sample does), a
	// full read of every /proc/PID/stat with raw syscalls, with os.ReadFile,
	// and with gopsutil's process package.
	refresh := func(b *testing.B, tree *procTree, buf []byte) {
		dir, err := os.Open("/proc")
		if err != nil {
			b.Fatal(err)
		}
		defer dir.Close()
		if err := tree.refresh(dir, buf); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("scan/incremental", func(b *testing.B) {
		buf := make([]byte, statBufSize)
		tree := newProcTree()
		refresh(b, &tree, buf)
		for b.Loop() {
			refresh(b, &tree, buf)
		}
	})
	b.Run("scan/full-raw-syscalls", func(b *testing.B) {
		buf := make([]byte, statBufSize)
		for b.Loop() {
			tree := newProcTree()
			refresh(b, &tree, buf)
		}
	})
	b.Run("scan/os.ReadFile", func(b *testing.B) {
		for b.Loop() {
			dir, err := os.Open("/proc")
			if err != nil {
				b.Fatal(err)
			}
			names, _ := dir.Readdirnames(-1)
			dir.Close()
			ppid := make(map[int]int, len(names))
			for _, name := range names {
				pid, ok := atoiPID(name)
				if !ok {
					continue
				}
				if data, err := os.ReadFile("/proc/" + name + "/stat"); err == nil {
					if pp, ok := parsePPID(data); ok {
						ppid[pid] = pp
					}
				}
			}
		}
	})
	b.Run("scan/gopsutil", func(b *testing.B) {
		ctx := context.Background()
		for b.Loop() {
			pids, err := process.PidsWithContext(ctx)
			if err != nil {
				b.Fatal(err)
			}
			ppid := make(map[int32]int32, len(pids))
			for _, pid := range pids {
				p, err := process.NewProcessWithContext(ctx, pid)
				if err != nil {
					continue
				}
				if pp, err := p.PpidWithContext(ctx); err == nil {
					ppid[pid] = pp
				}
			}
		}
	})
}
