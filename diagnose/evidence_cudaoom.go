package diagnose

// hintCUDAOOM: the CUDA runtime's "out of memory" gives no sizes and no
// GPU, so the fix is the check that tells the two causes apart: the job's
// own need past the card, or memory other processes hold (a crashed run's
// data-loader workers keep theirs until killed:
// sampler/importer/cudaoom.go).
var hintCUDAOOM = fix{"mem_cuda_oom", "A CUDA allocation failed for lack of GPU memory: nvidia-smi's process list (or fuser -v " +
	"/dev/nvidia*) shows who holds the card's memory; end stale processes of an earlier run, or if the job alone fills the " +
	"card lower its need (training: a smaller batch or input, gradient checkpointing; an inference server: the model sharded " +
	"over more GPUs with vLLM's --tensor-parallel-size or TGI's --num-shard, quantised, or a shorter context and KV cache, " +
	"max_model_len and gpu_memory_utilization; [vllm])"}

// cudaOOM is the finding for the CUDA runtime's out-of-memory error
// (sampler.SliceOOM layer "cuda"): the node's memory_pressure, no GPU named.
// size is the refused allocation where the line gives it (ggml's), else 0;
// even then the device is the program's own count, not nvidia-smi's.
// Out of line, so sliceOOM's loop carries a call, not these words
// (docs/benchmarks.md, binary size).
//
//go:noinline
func (e *evCtx) cudaOOM(size float64) {
	e.add(RuleMemoryPressure, Critical, -1, say("evidence.cuda_oom_title", "A program's CUDA allocation failed: out of memory"),
		Text{say("evidence.cuda_oom", "The CUDA runtime refused an allocation with \"out of memory\" (error 2): the GPU the program used had no memory left for it")},
		hintCUDAOOM,
		Text{cudaOOMEst(size)},
		Use{-1, "slice_oom"})
}

func cudaOOMEst(size float64) Msg {
	if size > 0 {
		return say("evidence.cuda_oom_est_size", "the program's error line, as pasted: it names the allocation ({{.Size}}) but not the GPU as nvidia-smi numbers it nor what else held the card's memory, so whether the job's own need or other processes filled the card needs nvidia-smi's process list", "Size", gbytes(size))
	}
	return say("evidence.cuda_oom_est", "the program's error line, as pasted: it gives neither the GPU nor the sizes, so whether the job's own need or other processes filled the card needs nvidia-smi's process list")
}
