package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// HAMi-core (Project-HAMi/HAMi-core, the CUDA interposer behind HAMi's
// Kubernetes GPU sharing) refuses an allocation that would take a
// container over its GPU memory limit, the pod's nvidia.com/gpumem, and
// logs it on stderr (src/allocator/allocator.c):
//
//	[HAMI-core ERROR (pid:30 thread=140382094939712 allocator.c:53)]: Device 0 OOM 3171158016 / 3145728000
//
// the container's CUDA device, the bytes the allocation would have brought
// it to, and the limit. The application then fails with an out-of-memory
// or an unrecognised CUDA error while the card itself may have memory
// free. HAMi-core's other lines (Initializing, Initialized, its INFO and
// Debug lines) are read with them and prove nothing.
// Corpus: hami-core-oom-*.
//
// Its other refusal comes after its own check passed: the driver's
// allocation failed and add_chunk logs the driver's code,
//
//	[HAMI-core ERROR (pid:7 thread=140360328144640 allocator.c:115)]: cuMemoryAllocate failed res=2
//
// where 2 is CUDA_ERROR_OUT_OF_MEMORY: the card itself is full under a
// pod within its slice. Other codes are no out-of-memory and not read.
// Corpus: b9-hami-core-cumemoryallocate-*.
var (
	hamiOOMRE  = lazy(`\[HAMI-core ERROR[^\]]*\]:\s*(?:Device (\d{1,3}) OOM (\d{1,20}) / (\d{1,20})\b|cuMemoryAllocate failed res=2\b)`)
	hamiLineRE = lazy(`^\s*\[HAMI-core `)
)

const kindHAMiOOM = "HAMi-core memory limit"

// hamiImpossible: a usage past any GPU's memory (2^50 bytes, a pebibyte) is
// HAMi-core's counter gone below zero and printed unsigned (18446744073707737660
// in corpus b7-hami-core-false-oom-*: the thread's "false OOM errors"), not
// an allocation over the limit.
const hamiImpossible = 1 << 50

func isHAMiLine(s string) bool { return hamiLineRE.MatchString(s) || hamiOOMRE.MatchString(s) }

// parseSliceOOM reads each refused allocation, HAMi-core's or vCUDA's
// (kindVCUDAOOM, below), as a fact of the node: the device number is the
// container's, not the node's, so no GPU is named.
func parseSliceOOM(sec *section) *part {
	p := newPart(sec)
	var snap sampler.Snapshot
	wrapped, card := "", 0
	for i, l := range sec.lines {
		var o sampler.SliceOOM
		want := "" // as printed: a wrapped counter is told exactly
		if m := hamiOOMRE.FindStringSubmatch(l); m != nil && m[1] == "" {
			o.Layer = "hami_driver" // the driver's refusal: no sizes
			card++
		} else if m != nil {
			o.Device, _ = strconv.Atoi(m[1])
			want = m[2]
			o.Want, _ = strconv.ParseFloat(m[2], 64)
			o.Limit, _ = strconv.ParseFloat(m[3], 64)
		} else if m := vcudaOOMRE.FindStringSubmatch(l); m != nil {
			want = m[1]
			o.Want, _ = strconv.ParseFloat(m[1], 64)
			o.Layer = "vcuda"
		}
		if o.Layer != "hami_driver" && (o.Want <= 0 || o.Layer == "" && o.Limit <= 0) {
			continue
		}
		if o.Want >= hamiImpossible {
			if wrapped == "" {
				wrapped = fmt.Sprintf("line %d: HAMi-core's usage counter wrapped below zero (%s bytes): its own accounting "+
					"is wrong, not a container over its GPU memory limit", sec.first+i, want)
			}
			continue
		}
		snap.Node.SliceOOM = append(snap.Node.SliceOOM, o)
		p.where(-1, "slice_oom", sec.first+i)
	}
	if len(snap.Node.SliceOOM) == 0 {
		if wrapped != "" {
			return p.skip(wrapped)
		}
		return p.skip("no out-of-memory line with a usage a GPU can have")
	}
	p.snaps = []sampler.Snapshot{snap}
	for k, n := range [2]int{len(snap.Node.SliceOOM) - card, card} {
		if n > 0 {
			p.note(sampler.Counted(n, "allocation refused", "allocations refused") +
				[2]string{" over a container's GPU memory limit", " by the driver, out of memory within a container's limit"}[k])
		}
	}
	return p
}

// hamiOOMIn: a run of HAMi-core lines holds a refused allocation; a run
// without one (it started, it logged) is not claimed.
func hamiOOMIn(ls []string) bool {
	for _, l := range ls {
		if hamiOOMRE.MatchString(l) {
			return true
		}
	}
	return false
}

// vcuda-controller (tkestack/vcuda-controller, the CUDA interposer behind
// TKE's gpu-manager, and its forks) refuses an allocation that would take
// the container's processes over its GPU memory limit (src/hijack_call.c,
// cuMemAlloc: used + request > gpu_memory), and its forks log it:
//
//	src/hijack_call.c:575 CUDA_ERROR_OUT_OF_MEMORY: Total real used gpu memory 30645682176 already exit
//
// the bytes its processes already use; the limit is not in the line, and
// the interposer hooks the container's one device, 0.
// Corpus: b7-oom-line-*-hijack-call-*.
var vcudaOOMRE = lazy(`hijack_call\.c:\d+ CUDA_ERROR_OUT_OF_MEMORY: Total real used gpu memory (\d{1,20}) `)

const kindVCUDAOOM = "vCUDA memory limit"

func isVCUDAOOMLine(s string) bool {
	return strings.Contains(s, "hijack_call.c") && vcudaOOMRE.MatchString(s)
}
