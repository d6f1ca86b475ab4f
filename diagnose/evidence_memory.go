package diagnose

import (
	"github.com/gpuscope/gpuscope/sampler"
)

// evMemEdge: free memory below this is the allocation edge whoever holds
// the rest. Frameworks that reserve memory up front leave more: TensorFlow
// keeps 225 MiB to 1.5 GiB for the system (gpu_device.cc MinSystemMemory),
// vLLM's gpu_memory_utilization 0.9 leaves a tenth, JAX's default
// preallocation a quarter.
const evMemEdge = 256 << 20

// preallocMarkers name processes whose memory use is a reservation made at
// start, not what they hold in tensors: the serving stacks (serverMarkers)
// and the training frameworks that take the card unless told not to
// (TensorFlow without allow_growth, JAX with XLA_PYTHON_CLIENT_PREALLOCATE).
var preallocMarkers = append([]string{"tensorflow", "jax"}, serverMarkers...)

var hintPrealloc = fix{"prealloc", "Read the framework's own allocator for what is in use: TensorFlow " +
	"tf.config.experimental.get_memory_info('GPU:0') (TF_FORCE_GPU_ALLOW_GROWTH=true allocates as needed); JAX " +
	"jax.devices()[0].memory_stats() (XLA_PYTHON_CLIENT_PREALLOCATE=false, or XLA_PYTHON_CLIENT_MEM_FRACTION); vLLM and " +
	"other servers: the KV-cache usage in their log or metrics (--gpu-memory-utilization sets the share). Only an " +
	"out-of-memory error in the job's log is pressure ([gpu-idle-handbook] §6.1)"}

// memoryFull judges one reading of a nearly full memory bar. Under
// evMemEdge free it is pressure whoever holds the rest. A listed process
// that reserves memory up front makes it that reservation, said as such
// (memory_preallocated). With no compute process listed one reading cannot
// tell the two apart and nothing is said (a container's job, a served
// model between requests, a guide's example: corpus smi-table-titanx-384-*,
// smi-table-2080ti22g-*, smi-table-collapsed-4xv100-*). A failed allocation
// read with the reading (PyTorch's out-of-memory message) is the edge
// however full the bar: the job asked more than was free. Where the
// message says what PyTorch held, the rest of the card's use beyond
// evHeldBytes (more than a CUDA context) is other programs' too, and
// where it would have covered the request, freeing it comes before
// shrinking the job (a desktop's browser or second UI: corpus
// b28-comfyui-oom-rtx3090-*).
func (e *evCtx) memoryFull(g *sampler.GPU) {
	if !g.MemUsed.OK || !g.MemTotal.OK || g.MemTotal.V <= 0 {
		return
	}
	pct := 100 * g.MemUsed.V / g.MemTotal.V
	ask, own := e.allocFailed(g)
	if pct < evMemFull && ask == 0 {
		return
	}
	used := say("evidence.mem_used", "{{.Used}} of {{.Total}} used", "Used", gbytes(g.MemUsed.V), "Total", gbytes(g.MemTotal.V))
	edge := g.MemTotal.V-g.MemUsed.V-g.MemReserved.Or(0) < evMemEdge || ask > 0
	who, compute := preallocator(g)
	switch {
	case !edge && who != "":
		e.add(RuleMemoryPreallocated, Info, g.Index, say("evidence.prealloc_title", "GPU {{.GPU}} memory {{.Pct}} reserved up front by {{.Who}}",
			"GPU", g.Index, "Pct", f0(pct)+"%", "Who", who),
			Text{used, say("evidence.prealloc", "{{.Who}} reserves memory when it starts, whatever its tensors need: a full bar is its reservation, not pressure", "Who", who)},
			hintPrealloc, e.oneShot(say("evidence.prealloc_est", "nvidia-smi counts what the allocator reserved; only the framework knows what is in use")),
			Use{g.Index, "mem_used"}, Use{g.Index, "procs"})
	case edge || compute:
		sev := Info
		if pct >= memVeryFull || ask > 0 { // an allocation failed: the job stopped on it
			sev = Warning
		}
		est := say("evidence.mem_slow", "memory use changes slowly, so one reading is fair evidence")
		if ask > 0 {
			est = say("evidence.alloc_failed", "an allocation of {{.Ask}} failed: the job needs more than the card has free", "Ask", gbytes(ask))
		} else if !edge {
			est = say("evidence.mem_maybe_reserved", "a framework that reserves memory at start (TensorFlow, JAX, vLLM) reads the same: its allocator stats tell")
		}
		evs, hint := Text{used}, hintMemPressure
		if other := g.MemUsed.V - own; ask > 0 && own > 0 && other >= evHeldBytes {
			evs = append(evs, say("evidence.mem_held_outside", "{{.Other}} of it is held outside the job's allocator, which had {{.Own}}: its CUDA context and the other programs on the card (the desktop, a browser, a second UI, a game)",
				"Other", gbytes(other), "Own", gbytes(own)))
			// What they hold beyond the job's own context (evHeldBytes'
			// worth, which closing other programs does not free) would have
			// covered the request.
			if g.MemTotal.V-g.MemUsed.V+other-evHeldBytes >= ask {
				hint = hintMemOthers
			}
		}
		e.add(RuleMemoryPressure, sev, g.Index, say("memory_pressure.title", "GPU {{.GPU}} memory {{.Pct}} full", "GPU", g.Index, "Pct", f0(pct)+"%"),
			evs, hint, e.oneShot(est), Use{g.Index, "mem_used"})
	}
}

// preallocator names the first listed process that reserves memory up
// front; compute says whether any compute process is listed at all.
func preallocator(g *sampler.GPU) (who string, compute bool) {
	for _, p := range g.Procs {
		compute = compute || p.Type != "G" // "C", "C+G", or not said
		if p.Host == nil || who != "" {
			continue
		}
		if containsAny(p.Host.Name, preallocMarkers) || containsAny(p.Host.Cmdline, preallocMarkers) {
			who = p.Host.Name
		}
	}
	return who, compute
}

// hintSliceOOM: the limit is the container's slice, so the card's size and
// the usual fixes for a full card are beside the point.
var hintSliceOOM = fix{"mem_slice", "The pod's GPU memory slice is full, not the card: raise the pod's limit (resources.limits " +
	"nvidia.com/gpumem in MiB, or nvidia.com/gpumem-percentage) or lower the job's need (a smaller batch or model, " +
	"gradient checkpointing); HAMi-core refuses any allocation over the limit however much memory the card has free " +
	"(nvidia-smi inside the pod shows the slice as the total)"}

// hintVCUDASlice: vcuda-controller's limit is the pod's gpu-manager
// resource, and its line does not say it.
var hintVCUDASlice = fix{"mem_slice_vcuda", "The container's vCUDA memory slice is full, not the card: raise the pod's " +
	"limit (gpu-manager's tencent.com/vcuda-memory, in 256 MiB units) or lower the job's need (a smaller batch or model, " +
	"a smaller KV-cache share: vLLM's gpu_memory_utilization, lmdeploy's cache_max_entry_count); nvidia-smi inside the " +
	"pod shows the slice as the total"}

// hintSliceCard: the driver, not HAMi-core, refused: the card is full
// though the pod is within its slice, so raising the slice cannot help.
var hintSliceCard = fix{"mem_slice_card", "The card under the pod's slice is full though the pod is within its limit: the pods " +
	"sharing the card hold more than it has (HAMi's deviceMemoryScaling above 1 overcommits it) or a process outside " +
	"HAMi-core holds memory on it; nvidia-smi on the host shows every process on the card: end the stray one, lower the " +
	"overcommit, or give the pod a whole card or a slice that fits beside the others"}

// sliceOOM: a GPU-sharing layer refused an allocation over the
// container's memory limit (sampler.SliceOOM: HAMi-core's log, or
// vcuda-controller's, whose line gives what the container uses but not its
// limit): the job ran out of the memory its pod may use, which is
// memory_pressure with the pod's slice, not the card's memory, as the
// evidence. Layer hami_driver is the driver refusing what HAMi-core let
// through: the card full beneath the slice, memory_pressure with the card
// as the cause. A log with both (a pod over its slice, and the driver
// refusing what the slice allowed) is one finding of the node that names
// both, with the card's fix first: a larger slice on a full card fails
// again.
func (e *evCtx) sliceOOM() {
	both := [2]bool{}
	for _, o := range e.last.Node.SliceOOM {
		both[0] = both[0] || o.Layer == ""
		both[1] = both[1] || o.Layer == "hami_driver"
	}
	for _, o := range e.last.Node.SliceOOM {
		if o.Layer == "pytorch" || both[0] && both[1] && o.Layer == "hami_driver" { // pytorch: the card's memory, judged with its reading (memoryFull)
			continue
		}
		if o.Layer == "cuda" {
			e.cudaOOM(o.Want)
			continue
		}
		title := say("evidence.slice_oom_title", "A container's GPU memory slice ({{.Limit}}) is exhausted: an allocation was refused", "Limit", gbytes(o.Limit))
		ev := say("evidence.slice_oom", "HAMi-core refused an allocation on the container's CUDA device {{.Device}}: it would have reached {{.Want}} of the pod's {{.Limit}} limit, {{.MiB}} MiB (the limit is the pod's slice, not the card's memory)",
			"Device", o.Device, "Want", gbytes(o.Want), "Limit", gbytes(o.Limit), "MiB", f0(o.Limit/(1<<20)))
		est := say("evidence.slice_oom_est", "HAMi-core's log line, as pasted: the allocation it refused; the job then fails with an out-of-memory or an unrecognised CUDA error")
		hint, drv := hintSliceOOM, Msg{}
		switch {
		case o.Layer == "hami_driver" || o.Layer == "" && both[1]: // both: the slice's line, then the driver's
			title = say("evidence.hami_driver_oom_title", "The GPU under a container's memory slice is full: the driver refused an allocation the slice allowed")
			drv = say("evidence.hami_driver_oom", "HAMi-core let an allocation through the pod's limit and the driver refused it with CUDA_ERROR_OUT_OF_MEMORY (cuMemoryAllocate res=2): the card itself has no memory left for it")
			hint = hintSliceCard
			if o.Layer != "" {
				ev, drv = drv, Msg{}
				est = say("evidence.hami_driver_oom_est", "HAMi-core's log line, as pasted: it gives no sizes, so who holds the card's memory needs nvidia-smi on the host")
			}
		case o.Layer == "vcuda":
			title = say("evidence.vcuda_oom_title", "A container's GPU memory slice is exhausted at {{.Used}}: an allocation was refused", "Used", gbytes(o.Want))
			ev = say("evidence.vcuda_oom", "vCUDA (hijack_call.c) refused an allocation: the container's processes already use {{.Used}}, and the request would pass the pod's limit (the line does not give the limit)",
				"Used", gbytes(o.Want))
			est = say("evidence.vcuda_oom_est", "vCUDA's log line, as pasted: the allocation it refused; the job then fails with CUDA_ERROR_OUT_OF_MEMORY")
			hint = hintVCUDASlice
		}
		evs := Text{ev}
		if drv.ID != "" {
			evs = append(evs, drv)
		}
		e.add(RuleMemoryPressure, Critical, -1, title, evs, hint, Text{est}, Use{-1, "slice_oom"})
	}
}

// allocFailed is the request of the last allocation the CUDA allocator
// refused on this GPU (PyTorch's message: Want is the use it would have
// reached), 0 for none, and what the allocator held itself then (0 where
// its message does not say).
func (e *evCtx) allocFailed(g *sampler.GPU) (ask, own float64) {
	for _, o := range e.last.Node.SliceOOM {
		if o.Layer == "pytorch" && o.Device == g.Index && o.Want > g.MemUsed.V {
			ask, own = o.Want-g.MemUsed.V, o.Own
		}
	}
	return ask, own
}
