package importer

import (
	"strings"
	"testing"
)

// CUDA's 802 is a fact of the node, whichever way an application words it;
// other CUDA errors and prose mentioning the number are not.
func TestCUDAInitErrorLines(t *testing.T) {
	for _, in := range []string{
		"cudaGetDeviceCount returned 802\n-> system not yet initialized\nResult = FAIL\n",
		"RuntimeError: cuda runtime error (802) : system not yet initialized at /opt/conda/THCGeneral.cpp:50\n",
		"CUDA error at bandwidthTest.cu:256 code=802(cudaErrorSystemNotReady) \"cudaSetDevice(currentDevice)\"\n",
	} {
		snaps, _, err := readString(in)
		if err != nil || len(snaps) != 1 || snaps[0].Node.CUDAError == "" {
			t.Errorf("%q: snaps %+v, err %v; want one snapshot with the CUDA error", in, snaps, err)
		}
	}
	for _, in := range []string{"cudaGetDeviceCount returned 100\n-> no CUDA-capable device is detected\n", "room 802 is on the left\n"} {
		if snaps, _, _ := readString(in); len(snaps) > 0 && snaps[0].Node.CUDAError != "" {
			t.Errorf("%q read as a CUDA 802 error: %q", in, snaps[0].Node.CUDAError)
		}
	}
}

// A grep of -q's Fabric block, beside a table, lands on the GPU.
func TestQueryFabricFragment(t *testing.T) {
	in := "$ nvidia-smi -q -i 0 | grep -A 2 '^ *Fabric'\n    Fabric\n        State                             : In Progress\n        Status                            : N/A\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 {
		t.Fatalf("snaps %+v, err %v", snaps, err)
	}
	if g := snaps[0].GPUs[0]; g.FabricState != "In Progress" || g.FabricStatus != "" {
		t.Errorf("fabric %q / %q, want In Progress and no status (N/A)", g.FabricState, g.FabricStatus)
	}
}

// -q -x carries the same fabric state; N/A (no NVSwitch) stays empty.
func TestXMLFabricState(t *testing.T) {
	doc := `<?xml version="1.0" ?>
<nvidia_smi_log><driver_version>570.133.20</driver_version><attached_gpus>2</attached_gpus>
<gpu id="00000000:53:00.0"><product_name>NVIDIA H100 80GB HBM3</product_name><fabric><state>In Progress</state><status>N/A</status></fabric></gpu>
<gpu id="00000000:64:00.0"><product_name>NVIDIA H100 80GB HBM3</product_name><fabric><state>N/A</state><status>N/A</status></fabric></gpu>
</nvidia_smi_log>
`
	snaps, _, err := readString(doc)
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 2 {
		t.Fatalf("snaps %+v, err %v", snaps, err)
	}
	if g := snaps[0].GPUs; g[0].FabricState != "In Progress" || g[0].FabricStatus != "" || g[1].FabricState != "" {
		t.Errorf("fabric states %q/%q, %q", g[0].FabricState, g[0].FabricStatus, g[1].FabricState)
	}
}

// wantCUDAError: each of reads is one snapshot with the node's CUDA error
// code, with its number first; none of prose is read as a CUDA error.
func wantCUDAError(t *testing.T, code string, reads, prose []string) {
	t.Helper()
	for _, in := range reads {
		snaps, _, err := readString(in)
		if err != nil || len(snaps) != 1 || !strings.HasPrefix(snaps[0].Node.CUDAError, code+": ") {
			t.Errorf("%q: snaps %+v, err %v; want one snapshot with CUDA error %s", in, snaps, err, code)
		}
	}
	for _, in := range prose {
		if snaps, _, _ := readString(in); len(snaps) > 0 && snaps[0].Node.CUDAError != "" {
			t.Errorf("%q read as a CUDA error: %q", in, snaps[0].Node.CUDAError)
		}
	}
}

// CUDA's 46 (cudaErrorDevicesUnavailable) in its old and new wording and
// in CUDA's samples; prose about a busy GPU is not.
func TestCUDABusyErrorLines(t *testing.T) {
	wantCUDAError(t, "46", []string{
		"THCudaCheck FAIL file=/pytorch/aten/src/THC/THCTensorRandom.cu line=25 error=46 : all CUDA-capable devices are busy or unavailable\n",
		"RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n",
		"cudaGetDeviceCount returned 46\n-> all CUDA-capable devices are busy or unavailable\nResult = FAIL\n",
	}, []string{"my GPU is busy or unavailable today\n"})
}

// CUDA_ERROR_OUT_OF_MEMORY from the call that creates a context, on the
// line or in the frames under it, is the node's CUDA error 2 (corpus
// b9-jcuda-cuctxcreate-*); the same error from an allocation is not.
func TestCUDAContextOOMLines(t *testing.T) {
	wantCUDAError(t, "2", []string{
		"jcuda.CudaException: CUDA_ERROR_OUT_OF_MEMORY\n    at jcuda.driver.JCudaDriver.checkResult(JCudaDriver.java:337)\n    at jcuda.driver.JCudaDriver.cuCtxCreate(JCudaDriver.java:1514)\n",
		"cuDevicePrimaryCtxRetain failed: CUDA_ERROR_OUT_OF_MEMORY\n",
	}, []string{
		"jcuda.CudaException: CUDA_ERROR_OUT_OF_MEMORY\n    at jcuda.driver.JCudaDriver.cuMemAlloc(JCudaDriver.java:2000)\n",
		"CUDA_ERROR_OUT_OF_MEMORY\n",
	})
}

// CUDA's 214 (cudaErrorECCUncorrectable), as PyTorch and the driver API
// word it (corpus b26-torch-cuda-uncorrectable-ecc-*); prose about ECC is not.
func TestCUDAECCErrorLines(t *testing.T) {
	wantCUDAError(t, "214", []string{
		"RuntimeError: CUDA error: uncorrectable ECC error encountered\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n",
		"Accelerator Fatal Error: call to cuCtxCreate returned error 214\n  (CUDA_ERROR_ECC_UNCORRECTABLE): uncorrectable ECC error encountered\n",
		"cudaMalloc failed: cudaErrorECCUncorrectable\n",
	}, []string{"ECC errors are corrected by the card\n", "room 214 is on the left\n"})
}

// CUDA's 35 (cudaErrorInsufficientDriver), as CuPy, PyTorch and CUDA's
// samples word it; a sentence about a driver that was sufficient, or
// another code, is not.
func TestCUDAOldDriverErrorLines(t *testing.T) {
	wantCUDAError(t, "35", []string{
		"cupy.cuda.runtime.CUDARuntimeError: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version\n",
		"RuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at /pytorch/aten/src/THC/THCGeneral.cpp:74\n",
		"cudaGetDeviceCount returned 35\n-> CUDA driver version is insufficient for CUDA runtime version\nResult = FAIL\n",
	}, []string{"the driver version was sufficient for CUDA 8.0\n", "cudaGetDeviceCount returned 350\n"})
}
