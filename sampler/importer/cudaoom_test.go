package importer

import (
	"strings"
	"testing"
)

// The CUDA runtime's "out of memory" (cudaErrorMemoryAllocation) in the
// words each framework puts before it is one refused allocation of the node;
// PyTorch's allocator message (which has the sizes, torchoom.go), the driver
// API's CUDA_ERROR_OUT_OF_MEMORY and prose about running out of memory are
// not this reader's.
func TestCUDARuntimeOOMLine(t *testing.T) {
	for _, in := range []string{
		"CUDA Error: out of memory\n",
		"12 CUDA Error: out of memory\nmain: ./src/cuda.c:36: check_error: Assertion `0' failed.\n",
		"RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API call\n",
		"THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=405 error=2 : out of memory\n" +
			"RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/THCGeneral.cpp:405\n",
		"F0412 10:01:02.123456  4242 syncedmem.cpp:56] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n",
	} {
		snaps, _, err := readString(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		o := snaps[len(snaps)-1].Node.SliceOOM
		if len(o) != 1 || o[0].Layer != "cuda" || o[0].Device != -1 || o[0].Want != 0 {
			t.Errorf("%q: want one refused allocation of layer cuda on no device, got %+v", in, o)
		}
	}
	for _, in := range []string{
		"the training ran out of memory on the GPU after an hour\n",
		"2024-01-02 10:00:00 W tensorflow: failed to allocate 10.00G (10737418240 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n",
	} {
		snaps, _, err := readString(in)
		if err != nil {
			continue
		}
		for _, s := range snaps {
			for _, o := range s.Node.SliceOOM {
				if o.Layer == "cuda" {
					t.Errorf("%q read as the CUDA runtime's out-of-memory error", in)
				}
			}
		}
	}
}

// ggml's CUDA buffer allocation failure, as llama.cpp's ggml-cuda.cu prints
// it ("%s: allocating %.2f MiB on device %d: cudaMalloc failed: %s" with
// cudaGetErrorString's "out of memory"), behind a server's log prefix: the
// node's refused allocation, as the runtime's other out-of-memory lines.
func TestGGMLCudaMallocOOM(t *testing.T) {
	const l = "11:02AM DBG GRPC(m-127.0.0.1:40111): stderr ggml_backend_cuda_buffer_type_alloc_buffer: allocating 2048.00 MiB on device 1: cudaMalloc failed: out of memory"
	if !isCUDAOOMLine(l) {
		t.Fatal("ggml's cudaMalloc out of memory not recognised")
	}
	p := parseCUDAOOM(&section{kind: kindCUDAOOM, first: 1, lines: []string{l}})
	if len(p.snaps) != 1 || len(p.snaps[0].Node.SliceOOM) != 1 || p.snaps[0].Node.SliceOOM[0].Layer != "cuda" {
		t.Fatalf("not read as the node's refused allocation: %+v", p.snaps)
	}
	if w := p.snaps[0].Node.SliceOOM[0].Want; w != 2048<<20 {
		t.Errorf("want %v bytes, the allocation's 2048 MiB", w)
	}
	if got := strings.Join(p.notes, ", "); !strings.Contains(got, "allocating 2048.00 MiB on device 1") {
		t.Errorf("note %q lacks ggml's size and device", got)
	}
	if isCUDAOOMLine("ggml_cuda_host_malloc: failed to allocate 512.00 MiB of pinned memory: out of memory") {
		t.Error("pinned host memory read as the GPU's")
	}
}
