package nvmlsource

import (
	"fmt"
	"math"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// readProcs lists the compute and graphics processes, merged by PID ("C",
// "G" or "C+G"), with their per-process utilisation.
func readProcs(g *gpuReader, out *sampler.GPU) {
	if out.MIG {
		g.note(cProcUtil, reasonMIG) // not asked: no per-process util with MIG
	}
	var compute, graphics []nvml.ProcessInfo
	if g.want(cCompute) {
		if p, r := g.dev.GetComputeRunningProcesses(); g.ok(cCompute, r) {
			compute = p
		}
	}
	if g.want(cGraphics) {
		if p, r := g.dev.GetGraphicsRunningProcesses(); g.ok(cGraphics, r) {
			graphics = p
		}
	}
	compute, graphics = possiblePIDs(g, compute), possiblePIDs(g, graphics)
	if len(compute)+len(graphics) == 0 {
		return
	}
	procs := make([]sampler.GPUProc, 0, len(compute)+len(graphics))
	procs = mergeProcs(procs, compute, "C")
	procs = mergeProcs(procs, graphics, "G")
	if !out.MIG {
		readProcUtil(g, procs)
	}
	out.Procs = procs
}

// pidMaxLimit is the largest PID a Linux kernel hands out (PID_MAX_LIMIT,
// 2^22 on 64-bit). NVML listing PID 0 or one above it read its process
// records with another layout than the driver wrote them
// (docs/driver-compatibility.md, process-info layout).
const pidMaxLimit = 1 << 22

// possiblePIDs drops the entries no process can have, saying so once.
func possiblePIDs(g *gpuReader, infos []nvml.ProcessInfo) []nvml.ProcessInfo {
	kept := infos[:0]
	for _, p := range infos {
		if p.Pid != 0 && p.Pid <= pidMaxLimit {
			kept = append(kept, p)
		}
	}
	if bad := len(infos) - len(kept); bad > 0 {
		type impossible struct{}
		g.once(impossible{}, fmt.Sprintf("GPU %d: the driver listed %s with impossible PIDs (0 or above %d): "+
			"left out; libnvidia-ml and the kernel module disagree on the process-record layout (seen with 535 drivers): "+
			"install one driver version for both", g.index, sampler.Counted(bad, "process", "processes"), pidMaxLimit))
	}
	return kept
}

// mergeProcs adds infos of one kind. A PID already listed under the other
// kind becomes "C+G"; a PID listed twice under one kind (one entry per MIG
// instance) adds up its memory.
func mergeProcs(procs []sampler.GPUProc, infos []nvml.ProcessInfo, kind string) []sampler.GPUProc {
	for _, p := range infos {
		mem := procMem(p.UsedGpuMemory)
		i := findPID(procs, int(p.Pid))
		switch {
		case i < 0:
			procs = append(procs, sampler.GPUProc{PID: int(p.Pid), Type: kind, MemUsed: mem})
		case procs[i].Type == kind:
			if procs[i].MemUsed.OK && mem.OK {
				procs[i].MemUsed.V += mem.V
			}
		default: // the same process uses the GPU for compute and graphics
			procs[i].Type = "C+G"
			if mem.OK && (!procs[i].MemUsed.OK || mem.V > procs[i].MemUsed.V) {
				procs[i].MemUsed = mem
			}
		}
	}
	return procs
}

// procMem is n/a when NVML cannot attribute memory (NVML_VALUE_NOT_AVAILABLE,
// e.g. without permission to see other users' processes).
func procMem(v uint64) sampler.Metric {
	if v == math.MaxUint64 {
		return sampler.NA
	}
	return some(v)
}

func findPID(procs []sampler.GPUProc, pid int) int {
	for i := range procs {
		if procs[i].PID == pid {
			return i
		}
	}
	return -1
}

// readProcUtil reads the driver's per-process samples newer than the last
// one seen on this GPU (the same bookkeeping as nvtop) and keeps the newest
// sample per PID. NOT_FOUND means no new samples: the fields stay n/a.
func readProcUtil(g *gpuReader, procs []sampler.GPUProc) {
	if !g.want(cProcUtil) {
		return
	}
	samples, r := g.dev.GetProcessUtilization(g.procSeen)
	if r == nvml.ERROR_NOT_FOUND || !g.ok(cProcUtil, r) {
		return
	}
	newest := g.procSeen
	for i := range samples {
		newest = max(newest, samples[i].TimeStamp)
	}
	g.procSeen = newest
	for pi := range procs {
		best := -1
		for si := range samples {
			if int(samples[si].Pid) == procs[pi].PID && (best < 0 || samples[si].TimeStamp > samples[best].TimeStamp) {
				best = si
			}
		}
		if best >= 0 {
			procs[pi].SMUtil, procs[pi].MemUtil = some(samples[best].SmUtil), some(samples[best].MemUtil)
		}
	}
}
