package importer

import (
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// The CUDA runtime's out-of-memory error as programs print it:
// cudaGetErrorString(cudaErrorMemoryAllocation), error 2, is "out of
// memory", and each framework puts its own words before it:
//
//	CUDA Error: out of memory                                     darknet, src/cuda.c check_error
//	RuntimeError: CUDA error: out of memory                       PyTorch's CUDA_CHECK (c10)
//	RuntimeError: cuda runtime error (2) : out of memory at ...   PyTorch's THC, before 1.0
//	Check failed: error == cudaSuccess (2 vs. 0)  out of memory   Caffe's CUDA_CHECK
//	...: allocating 5563.66 MiB on device 0: cudaMalloc failed: out of memory
//	                                                              ggml's CUDA buffer allocation
//	                                                              (llama.cpp, ollama, LocalAI)
//
// An allocation failed for lack of GPU memory, but the line gives no sizes
// and no GPU (ggml's gives both, kept only in the note; the device is its
// own index among the devices it was shown, not nvidia-smi's): read as a
// fact of the node, for the memory rule to name with
// the checks that tell the job's own need from memory others hold (a
// crashed run's workers keep theirs until killed: corpus
// b14-darknet-cuda-error-oom-*). PyTorch's caching allocator's own message
// ("CUDA out of memory. Tried to allocate ...") carries the sizes and is
// torchoom.go's; the driver API's CUDA_ERROR_OUT_OF_MEMORY is read where
// its caller says what it means (cudaerr.go, hami.go). PaddlePaddle's
// allocator (paddle/fluid/memory/allocation/cuda_allocator.cc) words it
// with its device and sizes, kept in the note as ggml's are:
//
//	Out of memory error on GPU 0. Cannot allocate 3.125000GB memory on GPU 0, available memory is only 117.750000MB.
//
// (", 7.78GB memory has been allocated and available ..." where Paddle
// holds some itself); a killed run's hidden process holding the card is
// what the process list shows (docs/corpus-accuracy.md, batch 21).
var cudaRuntimeOOMRE = lazy(`(?i)\bCUDA error:\s*out of memory\b|\bcuda runtime error \(2\)\s*:\s*out of memory\b|` +
	`cudaSuccess \(2 vs\. 0\)\s+out of memory\b|\bcudaMalloc failed:\s*out of memory\b`)

const kindCUDAOOM = "CUDA out-of-memory error"

// isCUDAOOMLine asks the pattern only of lines with its words
// (cudaGetErrorString's are lower case in every form above).
func isCUDAOOMLine(s string) bool {
	return strings.Contains(s, "out of memory") && cudaRuntimeOOMRE.MatchString(s) || strings.Contains(s, paddleOOM)
}

const paddleOOM = "Out of memory error on GPU"

// parseCUDAOOM reads the errors as one refused allocation of the node
// (sampler.SliceOOM, layer "cuda": no device; ggml's size as Want).
func parseCUDAOOM(sec *section) *part {
	p := newPart(sec)
	for i, l := range sec.lines {
		if isCUDAOOMLine(l) {
			p.where(-1, "slice_oom", sec.first+i)
			o := sampler.SliceOOM{Device: -1, Layer: "cuda"}
			p.snaps = []sampler.Snapshot{{Node: sampler.Node{SliceOOM: []sampler.SliceOOM{o}}}}
			if a, c := strings.Index(l, "allocating "), strings.Index(l, ": cudaMalloc failed"); a >= 0 && c > a {
				if f := strings.Fields(l[a:c]); len(f) >= 3 && f[2] == "MiB" {
					mib, _ := strconv.ParseFloat(f[1], 64)
					p.snaps[0].Node.SliceOOM[0].Want = mib * (1 << 20)
				}
				p.note("a CUDA allocation failed: out of memory (ggml: " + l[a:c] + ")")
				return p
			}
			if i := strings.Index(l, paddleOOM); i >= 0 {
				p.note("a CUDA allocation failed: out of memory (PaddlePaddle: " + strings.TrimSpace(l[i:]) + ")")
				return p
			}
			p.note("a CUDA allocation failed: out of memory (the line gives no GPU and no sizes)")
			return p
		}
	}
	return p.skip("no CUDA out-of-memory error")
}
