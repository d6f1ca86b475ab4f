package importer

import "strings"

// CUDA initialisation failures that show no GPU, as CUDA's samples and
// FFmpeg's CUDA device context (hwcontext_cuda.c: "%s failed -> %s: %s",
// the call, the error's name and its string) word them:
//
//	cudaGetDeviceCount returned 100
//	-> no CUDA-capable device is detected
//	[AVHWDeviceContext @ 0x5b72] cu->cuInit(0) failed -> CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected
//	cu->cuInit(0) failed -> CUDA_ERROR_UNKNOWN: unknown error
//
// They say where the process ran, not what a GPU did: error 100 is a node,
// job or container given no GPU or one whose devices were taken away while
// it ran (a container up for days, docs/corpus-accuracy.md batch 20); 999
// from cuInit is the driver or its device nodes not ready where it ran (an
// LXC after its host rebooted sees none until the host's driver is up).
// So they are refused naming those causes, never read as a GPU's fault.
// A copy wrapped at 80 columns is joined back as the unwrapper's "init"
// message (FFmpeg's line is the long one; the others fit in 80).
const (
	cudaNoDevice = `CUDA found no GPU it may use (error 100): none given to the node, job or container, or its ` +
		`devices lost while it ran (recreate the container); nvidia-smi there says which`
	cudaInitUnknown = `cuInit failed with an unknown error (999): the driver or its device nodes not ready where it ` +
		`ran (a container or LXC after its host rebooted: nvidia-smi on the host), or a driver in a bad state`
)

// cudaNoDev is which of them line l is: 100, 999 or 0. Plain substring
// tests, no pattern: it is asked of every pasted line, and the words are
// the programs' own.
func cudaNoDev(l string) int {
	switch {
	case strings.Contains(l, "cuInit") && (strings.Contains(l, "CUDA_ERROR_UNKNOWN") || strings.Contains(l, " 999")):
		return 999
	case strings.Contains(l, "no CUDA-capable device is detected") || strings.Contains(l, "CUDA_ERROR_NO_DEVICE") ||
		strings.Contains(l, "cudaErrorNoDevice") || strings.HasSuffix(strings.TrimSpace(l), "returned 100"):
		return 100
	}
	return 0
}

func isCUDANoDevLine(l string) bool { return cudaNoDev(l) != 0 }

// cudaNoDevReason is the refusal for a section of such lines (parseCUDAInit
// found none of the errors it reads); "" if none.
func cudaNoDevReason(ls []string) string {
	for _, l := range ls {
		switch cudaNoDev(l) {
		case 999:
			return cudaInitUnknown
		case 100:
			return cudaNoDevice
		}
	}
	return ""
}
