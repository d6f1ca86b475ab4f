package importer

import (
	"strings"
	"testing"
)

// CUDA's "no device" (100) and cuInit's unknown error (999), in the words
// of CUDA's deviceQuery sample, the runtime's error name and FFmpeg's CUDA
// device context ("%s failed -> %s: %s"), are refused naming where they
// ran, never read as a GPU's fault; beside a listing, the GPUs are still
// read and no CUDA error is claimed for them.
func TestCUDANoDeviceRefused(t *testing.T) {
	for in, want := range map[string]string{
		"cudaGetDeviceCount returned 100\n-> no CUDA-capable device is detected\nResult = FAIL\n":                                                 "error 100",
		"[AVHWDeviceContext @ 0x55d0c8a1e2c0] cu->cuInit(0) failed -> CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n":                 "error 100",
		"terminate called after throwing an instance of 'std::runtime_error'\n  what():  cudaErrorNoDevice: no CUDA-capable device is detected\n": "recreate the container",
		"[AVHWDeviceContext @ 0x5601f0a3c640] cu->cuInit(0) failed -> CUDA_ERROR_UNKNOWN: unknown error\nDevice creation failed: -542398533.\n":   "error (999)",
		"cuInit(0) returned 999\n": "nvidia-smi on the host",
	} {
		snaps, _, err := readString(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: snaps %+v, err %v; want refused with %q", in, snaps, err, want)
		}
	}
	// FFmpeg's line wrapped at 80 columns by a terminal or a chat.
	ff := "[AVHWDeviceContext @ 0x55d0c8a1e2c0] cu->cuInit(0) failed -> CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"
	if _, _, err := readString(ff[:80] + "\n" + ff[80:] + "\n"); err == nil || !strings.Contains(err.Error(), "error 100") {
		t.Errorf("wrapped at 80: %v; want refused with error 100", err)
	}
	in := "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-a)\ncu->cuInit(0) failed -> CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 || snaps[0].Node.CUDAError != "" {
		t.Errorf("listing and the error: snaps %+v, err %v; want the GPU read and no CUDA error claimed", snaps, err)
	}
}
