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
//
// The cudaMallocAsync backend (c10/cuda/CUDAMallocAsyncAllocator.cpp;
// PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync, which ComfyUI selects
// by default) words the same reading over six lines:
//
//	Allocation on device 0 would exceed allowed memory. (out of memory)
//	Currently allocated     : 3.61 GiB
//	Requested               : 1.10 GiB
//	Device limit            : 6.00 GiB
//	Free (according to CUDA): 0 bytes
//	PyTorch limit (set by user-supplied memory fraction)
//	                        : 17179869184.00 GiB
//
// Device limit and Free are cudaMemGetInfo's total and free, Requested the
// failed allocation. Corpus: b28-comfyui-oom-*.
var (
	torchAsyncHeadRE  = lazy(`Allocation on device (\d{1,3}) would exceed allowed\s+memory`)
	torchAsyncTailRE  = lazy(`^\s*(?:Currently allocated|Requested|Device limit|Free \(according to CUDA\)|PyTorch limit|: [\d.]+ )`)
	torchAsyncFieldRE = lazy(`^\s*(Currently allocated|Requested|Device limit|Free \(according to CUDA\))\s*:\s*([\d.]+ [KMGT]?i?B|[\d.]+ bytes)`)
)

var (
	torchOOMNewRE  = lazy(`GPU (\d{1,3}) has a total capaci?ty of ([\d.]+ [KMGT]?i?B|[\d.]+ bytes) of which ([\d.]+ [KMGT]?i?B|[\d.]+ bytes) is free`)
	torchOOMOldRE  = lazy(`\(GPU (\d{1,3}); ([\d.]+ [KMGT]?i?B) total capacity; [\d.]+ [KMGT]?i?B already allocated; ([\d.]+ [KMGT]?i?B|[\d.]+ bytes) free;`)
	torchOOMProcRE = lazy(`Process (\d{1,10}) has ([\d.]+ [KMGT]?i?B|[\d.]+ bytes) memory in use`)
	torchOOMAskRE  = lazy(`Tried to allocate ([\d.]+ [KMGT]?i?B|[\d.]+ bytes)`)
	// torchOOMOwnRE: what PyTorch itself held, where a one-line message
	// says it: reserved in the older form, allocated plus the "cached" it
	// kept unallocated before 1.4 (10.38 GiB allocated and 2.99 GiB cached:
	// corpus b9-torch-oom-16gb-*), "this process has" in 2.0 and 2.1's.
	torchOOMOwnRE = lazy(`([\d.]+ [KMGT]?i?B) reserved in total by PyTorch|this process has ([\d.]+ [KMGT]?i?B) memory in use|` +
		`([\d.]+ [KMGT]?i?B) already allocated; [^;]*; ([\d.]+ [KMGT]?i?B|[\d.]+ bytes) cached\)`)
)

const kindTorchOOM = "PyTorch out of memory"

// isTorchOOMLine is asked of every unclaimed line of a paste: the plain
// substring test keeps the regular expressions off all other lines.
func isTorchOOMLine(s string) bool {
	return strings.Contains(s, "total capac") && (torchOOMNewRE.MatchString(s) || torchOOMOldRE.MatchString(s))
}

// isTorchAsyncHead: s is the backend's first line whole, ending where the
// allocator ends it, so the unwrapper joins a wrapped one back and no
// field line onto it.
func isTorchAsyncHead(s string) bool {
	return strings.HasSuffix(strings.TrimSpace(s), "(out of memory)") && torchAsyncHeadRE.MatchString(s)
}

// torchAsyncRun is the length of the cudaMallocAsync backend's message
// starting at ls[i] (its first line and the field lines under it, past
// the lines a wrapped first line was joined from), or 0.
func torchAsyncRun(ls []string, i int) int {
	if !strings.Contains(ls[i], "would exceed allowed") || !torchAsyncHeadRE.MatchString(ls[i]) {
		return 0
	}
	n := 1
	for fields := 0; fields < 6 && i+n < len(ls); n++ {
		if ls[i+n] == joinedAway { // the first line's wrapped tail, joined back
			continue
		}
		if !torchAsyncTailRE.MatchString(ls[i+n]) {
			break
		}
		fields++
	}
	return n
}

// torchAsyncReading reads the message whose first line is ls[i]: the GPU,
// cudaMemGetInfo's total and free, the request and what PyTorch held
// (Currently allocated); ok false where a
// field is missing (a paste cut inside the message).
func torchAsyncReading(ls []string, i int) (idx int, total, free, ask, own float64, ok bool) {
	m := torchAsyncHeadRE.FindStringSubmatch(ls[i])
	if m == nil {
		return 0, 0, 0, 0, 0, false
	}
	idx, _ = strconv.Atoi(m[1])
	got := map[string]float64{}
	for j, end := i+1, i+torchAsyncRun(ls, i); j < end; j++ {
		if f := torchAsyncFieldRE.FindStringSubmatch(ls[j]); f != nil {
			if b, ok := torchBytes(f[2]); ok {
				got[f[1]] = b
			}
		}
	}
	total, ok1 := got["Device limit"]
	free, ok2 := got["Free (according to CUDA)"]
	ask, own = got["Requested"], got["Currently allocated"]
	return idx, total, free, ask, own, ok1 && ok2
}

// torchBytes reads "1.29 GiB", "24.56 MiB", "0 bytes".
func torchBytes(s string) (float64, bool) {
	num, unit := splitNumber(s)
	v, err := strconv.ParseFloat(num, 64)
	k, ok := memScale(unit)
	return v * k, err == nil && ok
}

// torchOOMFields reads the GPU, total and free of a one-line message.
func torchOOMFields(m []string) (idx int, total, free float64, ok bool) {
	idx, _ = strconv.Atoi(m[1])
	total, ok1 := torchBytes(m[2])
	free, ok2 := torchBytes(m[3])
	return idx, total, free, ok1 && ok2
}

// parseTorchOOM reads each message as a reading of its GPU's memory; a
// later message about the same GPU replaces an earlier one.
func parseTorchOOM(sec *section) *part {
	p := newPart(sec)
	var snap sampler.Snapshot
	for i, l := range sec.lines {
		var (
			idx                   int
			total, free, ask, own float64
			ok                    bool
		)
		if m := torchOOMNewRE.FindStringSubmatch(l); m != nil {
			idx, total, free, ok = torchOOMFields(m)
		} else if m := torchOOMOldRE.FindStringSubmatch(l); m != nil {
			idx, total, free, ok = torchOOMFields(m)
		} else {
			idx, total, free, ask, own, ok = torchAsyncReading(sec.lines, i)
		}
		if !ok || idx >= maxPictureGPUs || total <= 0 || free > total {
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
			ask, _ = torchBytes(a[1])
		}
		if o := torchOOMOwnRE.FindStringSubmatch(l); o != nil {
			for _, b := range o[1:] {
				n, _ := torchBytes(b)
				own += n
			}
		}
		if ask > free {
			snap.Node.SliceOOM = append(snap.Node.SliceOOM, sampler.SliceOOM{Device: idx, Want: total - free + ask, Limit: total, Layer: "pytorch", Own: own})
			p.where(-1, "slice_oom", sec.first+i)
		}
	}
	if len(snap.GPUs) == 0 {
		return p.skip("no PyTorch out-of-memory message with the GPU's memory")
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note("PyTorch's out-of-memory message read as a memory reading of " + countGPUs(len(snap.GPUs)))
	return p
}
