package importer

import (
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// PyTorch's out-of-memory message (c10/cuda/CUDACachingAllocator.cpp)
// carries what cudaMemGetInfo said when the allocation failed. Since 2.1:
//
//	torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.40 GiB. GPU 0 has a total capacity of 44.53 GiB of which 1.29 GiB is free. Process 1856718 has 1.23 GiB memory in use. Process 1943448 has 41.99 GiB memory in use. ...
//
// (2.0 and 2.1 spelled it "total capacty of", fixed in 2.2), and before it:
//
//	CUDA out of memory. Tried to allocate 216.00 MiB (GPU 0; 7.92 GiB total capacity; 69.17 MiB already allocated; 24.56 MiB free; 86.00 MiB reserved in total by PyTorch)
//
// Each is a reading of one GPU's memory, total and free, with the processes
// holding it where the message names them, and a failed allocation: the
// request was more than the free memory, however much that is (a job
// asking 2.56 GiB with 1.83 GiB free is out of memory as surely as one
// with 24 MiB free; corpus b9-torch-oom-16gb-*), so the diagnosis judges
// the reading as a card at its allocation edge (diagnose/evidence_memory.go).
// "GPU N" is the job's CUDA device number, the nvidia-smi index unless
// CUDA_VISIBLE_DEVICES renumbers. Corpus: b7-torch-oom-*, b9-torch-oom-*.
var (
	torchOOMNewRE  = lazy(`GPU (\d{1,3}) has a total capaci?ty of ([\d.]+ [KMGT]?i?B|[\d.]+ bytes) of which ([\d.]+ [KMGT]?i?B|[\d.]+ bytes) is free`)
	torchOOMOldRE  = lazy(`\(GPU (\d{1,3}); ([\d.]+ [KMGT]?i?B) total capacity; [\d.]+ [KMGT]?i?B already allocated; ([\d.]+ [KMGT]?i?B|[\d.]+ bytes) free;`)
	torchOOMProcRE = lazy(`Process (\d{1,10}) has ([\d.]+ [KMGT]?i?B|[\d.]+ bytes) memory in use`)
	torchOOMAskRE  = lazy(`Tried to allocate ([\d.]+ [KMGT]?i?B|[\d.]+ bytes)`)
)

const kindTorchOOM = "PyTorch out of memory"

// isTorchOOMLine is asked of every unclaimed line of a paste: the plain
// substring test keeps the regular expressions off all other lines.
func isTorchOOMLine(s string) bool {
	return strings.Contains(s, "total capac") && (torchOOMNewRE.MatchString(s) || torchOOMOldRE.MatchString(s))
}

// torchBytes reads "1.29 GiB", "24.56 MiB", "0 bytes".
func torchBytes(s string) (float64, bool) {
	num, unit := splitNumber(s)
	v, err := strconv.ParseFloat(num, 64)
	k, ok := memScale(unit)
	return v * k, err == nil && ok
}

// parseTorchOOM reads each message as a reading of its GPU's memory; a
// later message about the same GPU replaces an earlier one.
func parseTorchOOM(sec *section) *part {
	p := newPart(sec)
	var snap sampler.Snapshot
	for i, l := range sec.lines {
		m := torchOOMNewRE.FindStringSubmatch(l)
		if m == nil {
			m = torchOOMOldRE.FindStringSubmatch(l)
		}
		if m == nil {
			continue
		}
		idx, _ := strconv.Atoi(m[1])
		total, ok1 := torchBytes(m[2])
		free, ok2 := torchBytes(m[3])
		if idx >= maxPictureGPUs || !ok1 || !ok2 || total <= 0 || free > total {
			continue
		}
		j := 0
		for j < len(snap.GPUs) && snap.GPUs[j].Index != idx {
			j++
		}
		if j == len(snap.GPUs) {
			snap.GPUs = append(snap.GPUs, sampler.GPU{Index: idx})
		}
		g := &snap.GPUs[j]
		g.MemTotal, g.MemUsed, g.Procs = sampler.Some(total), sampler.Some(total-free), nil
		for _, pm := range torchOOMProcRE.FindAllStringSubmatch(l, -1) {
			pid, _ := strconv.Atoi(pm[1])
			b, _ := torchBytes(pm[2])
			g.Procs = append(g.Procs, sampler.GPUProc{PID: pid, Type: "C", MemUsed: sampler.Some(b)})
		}
		p.where(idx, "mem_used", sec.first+i)
		p.where(idx, "procs", sec.first+i)
		if a := torchOOMAskRE.FindStringSubmatch(l); a != nil {
			if ask, ok := torchBytes(a[1]); ok && ask > free {
				snap.Node.SliceOOM = append(snap.Node.SliceOOM, sampler.SliceOOM{Device: idx, Want: total - free + ask, Limit: total, Layer: "pytorch"})
				p.where(-1, "slice_oom", sec.first+i)
			}
		}
	}
	if len(snap.GPUs) == 0 {
		return p.skip("no PyTorch out-of-memory message with the GPU's memory")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note("PyTorch's out-of-memory message read as a memory reading of " + countGPUs(len(snap.GPUs)))
	return p
}
