// Package nsystest writes one synthetic training workload two ways: as the
// PyTorch profiler's Kineto trace and as an Nsight Systems SQLite export
// (written with modernc.org/sqlite, which only tests link: nothing in
// gpuscope's binary imports this package, TestOneWayFlow). The
// same facts in both, so a test can hold that both readers give the same
// analysis; no real matched pair (one run profiled both ways) is public.
package nsystest

// Ev is one event of the workload. Times are nanoseconds.
type Ev struct {
	Kind           string // "kernel", "memcpy", "memset", "runtime", "range"
	Name           string // kernels, runtime calls (no _vNNNN suffix), ranges
	Start, Dur     int64
	TID            int64
	Stream         int
	Corr           int64
	Bytes          int64
	Copy, Src, Dst int // CUPTI copy kind (1 HtoD, 2 DtoH); nsys memory kinds (0 Pageable, 1 Pinned, 2 Device)
}

// Device is the workload's one GPU.
var Device = struct {
	Name              string
	Mem               int64
	Major, Minor, SMs int
}{"NVIDIA A100-SXM4-80GB", 85899345920, 8, 0, 108}

// PID is the profiled process.
const PID = 4242

// conv is cuDNN's FP32 implicit-GEMM convolution, no tensor-core variant.
const conv = "void cudnn::detail::implicit_convolve_sgemm<float, float, 1024, 6, 7, 3, 3, 5, 1, false, true, true>(int, int, int, float const*, int, float*, float const*, kernel_conv_params, unsigned long long, int, float, float, int, float const*, float const*, bool, int, int)"

// Workload is steps training steps of kernels matmuls each (steps >= 2: the
// last is cut as HTA cuts it): per step a ProfilerStep range, the
// DataLoader on the main thread (input_starved), a pageable host-to-device
// copy (copy_bound), short FP32 matmul kernels shorter than their launches
// (launch_bound) and a long FP32 convolution (tensor_cores_idle), an all-reduce on its own stream, a
// memset, and an aten::item whose cudaStreamSynchronize waits for the GPU,
// after which the host keeps the GPU idle (sync_stall).
func Workload(steps, kernels int) []Ev {
	var out []Ev
	const main, us = 4242, int64(1000)
	t, corr := 1000*us, int64(1)
	launch := func(name string, at int64) int64 {
		corr++
		out = append(out, Ev{Kind: "runtime", Name: name, Start: at, Dur: 8 * us, TID: main, Corr: corr})
		return corr
	}
	for s := range steps {
		stepStart := t
		out = append(out, Ev{Kind: "range", Name: "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", Start: t + us, Dur: 3000 * us, TID: main})
		t += 3100 * us
		c := launch("cudaMemcpyAsync", t)
		out = append(out, Ev{Kind: "memcpy", Name: "", Start: t + 10*us, Dur: 1400 * us, Stream: 7, Corr: c, Bytes: 16 << 20, Copy: 1, Src: 0, Dst: 2})
		t += 1500 * us
		c = launch("cudaMemsetAsync", t)
		out = append(out, Ev{Kind: "memset", Start: t + 9*us, Dur: 2 * us, Stream: 7, Corr: c, Bytes: 4096, Dst: 2})
		t += 12 * us
		for range kernels {
			out = append(out, Ev{Kind: "range", Name: "aten::mm", Start: t, Dur: 11 * us, TID: main})
			c := launch("cudaLaunchKernel", t+1*us)
			out = append(out, Ev{Kind: "kernel", Name: "ampere_sgemm_32x32_sliced1x4_nn", Start: t + 10*us, Dur: 3 * us, Stream: 7, Corr: c})
			t += 12 * us
		}
		// one long FP32 convolution: most of the matmul time
		out = append(out, Ev{Kind: "range", Name: "aten::cudnn_convolution", Start: t, Dur: 11 * us, TID: main})
		c = launch("cudaLaunchKernel", t+us)
		out = append(out, Ev{Kind: "kernel", Name: conv, Start: t + 10*us, Dur: 1500 * us, Stream: 7, Corr: c})
		t += 12 * us
		c = launch("cudaLaunchKernel", t)
		out = append(out, Ev{Kind: "kernel", Name: "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", Start: t + 9*us, Dur: 400 * us, Stream: 20, Corr: c})
		t += 10 * us
		// loss.item(): the copy back waits for the convolution, the host for the copy
		out = append(out, Ev{Kind: "range", Name: "aten::item", Start: t, Dur: 1540 * us, TID: main},
			Ev{Kind: "range", Name: "aten::_local_scalar_dense", Start: t + us, Dur: 1538 * us, TID: main})
		c = launch("cudaMemcpyAsync", t+2*us)
		out = append(out, Ev{Kind: "memcpy", Start: t + 1520*us, Dur: 3 * us, Stream: 7, Corr: c, Bytes: 4, Copy: 2, Src: 2, Dst: 0})
		out = append(out, Ev{Kind: "runtime", Name: "cudaStreamSynchronize", Start: t + 12*us, Dur: 1520 * us, TID: main})
		t += 1600 * us
		t += 5000 * us // the host logs and checkpoints with the GPU idle
		out = append(out, Ev{Kind: "range", Name: "ProfilerStep#" + itoa(s), Start: stepStart, Dur: t - stepStart, TID: main})
		t += 20 * us
	}
	return out
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
