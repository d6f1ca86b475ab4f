package importer

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// CUDA initialisation failures an application prints while nvidia-smi
// works, as CUDA's samples, PyTorch and cuInit callers word them:
//
//	cudaGetDeviceCount returned 802
//	-> system not yet initialized
//	RuntimeError: cuda runtime error (802) : system not yet initialized at ...
//	CUDA error at bandwidthTest.cu:256 code=802(cudaErrorSystemNotReady)
//
// 802 (cudaErrorSystemNotReady, CUDA_ERROR_SYSTEM_NOT_READY) is the NVSwitch
// fabric not yet set up: docs/playbook/fabric_manager.md. 46
// (cudaErrorDevicesUnavailable) is every GPU the process may use held by
// another process (exclusive compute mode, a job the scheduler thought
// finished); its wording, old and new:
//
//	THCudaCheck FAIL ... error=46 : all CUDA-capable devices are busy or unavailable
//	RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable
//
// 214 (cudaErrorECCUncorrectable, CUDA_ERROR_ECC_UNCORRECTABLE) is the GPU
// finding an uncorrectable memory error under the program, at any call
// ([cuda-runtime-errors] in docs/references.md); PyTorch's and the driver
// API's words for it (corpus b26-torch-cuda-uncorrectable-ecc-*):
//
//	RuntimeError: CUDA error: uncorrectable ECC error encountered
//	call to cuCtxCreate returned error 214
//
// 35 (cudaErrorInsufficientDriver) is the installed driver older than the
// CUDA runtime the program was built with ([cuda-runtime-errors]): no GPU
// is at fault, none is usable by that program. Frameworks of the 367–390
// era word it (corpus batch 27):
//
//	cupy.cuda.runtime.CUDARuntimeError: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version
//	RuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at .../THCGeneral.cpp:74
//	cudaGetDeviceCount returned 35
//	-> CUDA driver version is insufficient for CUDA runtime version
//
// A dcgmi diag table quoting the new wording is claimed as the table first.
var (
	cudaInitRE = lazy(`(?i)system not yet initiali[sz]ed|cudaErrorSystemNotReady|CUDA_ERROR_SYSTEM_NOT_READY|` +
		`(returned|error|code=|\()\s*802\b`)
	cudaBusyRE = lazy(`(?i)(all CUDA-capable devices are|CUDA-capable device\(s\) is/are) busy or unavailable|` +
		`cudaErrorDevicesUnavailable|CUDA_ERROR_DEVICES_UNAVAILABLE|returned 46\b`)
	cudaECCRE = lazy(`(?i)uncorrectable ECC error encountered|cudaErrorECCUncorrectable|CUDA_ERROR_ECC_UNCORRECTABLE|` +
		`(returned|code=)\s*(error\s*)?214\b`)
	cudaOldDriverRE = lazy(`(?i)CUDA driver version is insufficient for CUDA runtime version|cudaErrorInsufficientDriver|returned 35\b`)
)

// CUDA_ERROR_OUT_OF_MEMORY from the call that creates a context
// (cuCtxCreate, or cuDevicePrimaryCtxRetain under the runtime API) comes
// before the program allocated anything: the memory a context needs is held
// by other processes, as on a shared machine (corpus b9-jcuda-cuctxcreate-*):
//
//	jcuda.CudaException: CUDA_ERROR_OUT_OF_MEMORY
//	    at jcuda.driver.JCudaDriver.checkResult(JCudaDriver.java:337)
//	    at jcuda.driver.JCudaDriver.cuCtxCreate(JCudaDriver.java:1514)
//
// The call is on the error's line or in the stack frames printed under it.
var cudaOOMRE = lazy(`CUDA_ERROR_OUT_OF_MEMORY`)

// ctxFrames: how far under the error its stack frames are looked for.
const ctxFrames = 6

// ctxOOMRun is the length of such an error from ls[i] to the line naming
// the call, 0 when ls[i] is not one.
func ctxOOMRun(ls []string, i int) int {
	if !strings.Contains(ls[i], "CUDA_ERROR_OUT_OF_MEMORY") { // asked of every line: no regular expression
		return 0
	}
	for j := i; j < len(ls) && j <= i+ctxFrames; j++ {
		if strings.Contains(ls[j], "cuCtxCreate") || strings.Contains(ls[j], "cuDevicePrimaryCtxRetain") {
			return j - i + 1
		}
	}
	return 0
}

// isCUDAErrorLine: a line that starts such a failure. It is asked of every
// pasted line: error 35's and 214's patterns only of lines with their words.
func isCUDAErrorLine(l string) bool {
	return cudaInitRE.MatchString(l) || cudaBusyRE.MatchString(l) || isCUDAOldDriverLine(l) || isCUDAECCLine(l) || isCUDANoDevLine(l)
}

func isCUDAECCLine(l string) bool {
	return (strings.Contains(l, "ECC") || strings.Contains(l, "214")) && cudaECCRE.MatchString(l)
}

func isCUDAOldDriverLine(l string) bool {
	return (strings.Contains(l, "nsufficient") || strings.Contains(l, "returned 35")) && cudaOldDriverRE.MatchString(l)
}

// isCUDAInitLine: a line of such a failure, or the "-> why" line CUDA's
// samples print under the code.
func isCUDAInitLine(s string) bool {
	t := strings.TrimSpace(s)
	return isCUDAErrorLine(t) || strings.HasPrefix(t, "-> ") && strings.Contains(t, "initiali")
}

// cudaErrors are the codes read, 802 first: a paste with both is the
// fabric's, which stops every process; then 214, a fault of the card.
var cudaErrors = []struct {
	re         *lazyRE
	code, what string
}{
	{cudaInitRE, "802: system not yet initialized", "CUDA initialisation failed with error 802"},
	{cudaECCRE, "214: uncorrectable ECC error encountered", "CUDA stopped on an uncorrectable ECC error, error 214"},
	{cudaOldDriverRE, "35: CUDA driver version is insufficient for CUDA runtime version", "CUDA refused the driver as older than its runtime, error 35"},
	{cudaBusyRE, "46: all CUDA-capable devices are busy or unavailable", "CUDA found every GPU busy or unavailable, error 46"},
	{cudaOOMRE, "2: out of memory creating a CUDA context", "CUDA could not create a context: out of memory, error 2"},
}

// parseCUDAInit reads the failure as a fact of the node: no GPU is named.
func parseCUDAInit(sec *section) *part {
	p := newPart(sec)
	for _, e := range cudaErrors {
		for i, l := range sec.lines {
			if e.re.MatchString(l) {
				p.where(-1, "cuda_error", sec.first+i)
				p.snaps = []sampler.Snapshot{{Node: sampler.Node{CUDAError: e.code + " (" + strings.TrimSpace(l) + ")"}}}
				p.note(fmt.Sprintf("%s (line %d)", e.what, sec.first+i))
				return p
			}
		}
	}
	if r := cudaNoDevReason(sec.lines); r != "" {
		return p.skip(r)
	}
	return p.skip("no CUDA error code")
}
