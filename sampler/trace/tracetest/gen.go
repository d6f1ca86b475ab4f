// Package tracetest writes synthetic Kineto traces of any size for the
// reader's and the analysis' benchmarks: the shape of a real training
// trace (per kernel an operator, its launch call and the kernel with
// Kineto's full args), deterministic, streamed so a gigabyte is never held.
package tracetest

import (
	"bufio"
	"fmt"
	"io"
)

// kernelNames cycle through a step, as a network's layers do.
var kernelNames = []string{
	"void cudnn::detail::implicit_convolve_sgemm<float, float, 1024, 6, 7, 3, 3, 5, 1, false, true, true>(int, int, int, float const*, int, float*, float const*, kernel_conv_params, unsigned long long, int, float, float, int, float const*, float const*, bool, int, int)",
	"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
	"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, float, float)",
	"volta_sgemm_128x64_nn",
	"ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
}

var opNames = []string{"aten::cudnn_convolution", "aten::add_", "aten::cudnn_batch_norm", "aten::mm", "nccl:all_reduce"}

// Write writes a trace of steps ProfilerSteps with kernels kernels each
// and returns the bytes written.
func Write(w io.Writer, steps, kernels int) (int64, error) {
	return WriteWith(w, steps, kernels, Options{})
}

// Options add to the trace Write writes.
type Options struct {
	// Syncs adds the sync-making operators of TensorBoard's ResNet-50
	// trace with its DataLoader on the main thread (sampler/trace/testdata,
	// 0.11 of them a GPU event): after every 18th kernel an aten::to
	// around its aten::copy_, the child written first as that trace does;
	// and at each step's end an aten::item whose cudaStreamSynchronize
	// waits for the GPU.
	Syncs bool
}

// WriteWith is Write with the options.
func WriteWith(w io.Writer, steps, kernels int, o Options) (int64, error) {
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	fmt.Fprintf(bw, `{
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85045379072, "computeMajor": 9, "computeMinor": 0, "numSms": 132}
  ],
  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8},
  "traceEvents": [
`)
	const pid, tid = 4242, 4242
	ts := 1000.0
	corr, ext := int64(1), int64(1)
	first := true
	sep := func() {
		if !first {
			bw.WriteString(",\n")
		}
		first = false
	}
	for s := range steps {
		stepStart := ts
		stepDur := float64(kernels)*12 + 300
		sep()
		fmt.Fprintf(bw, `  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": %d, "tid": %d, "ts": %.3f, "dur": %.3f, "args": {"External id": %d, "Record function id": 0}}`,
			s, pid, tid, stepStart, stepDur, ext)
		ext++
		sep()
		fmt.Fprintf(bw, `  {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", "pid": %d, "tid": %d, "ts": %.3f, "dur": 200.000, "args": {"External id": %d}}`,
			pid, tid, ts+1, ext)
		ext++
		ts += 250
		for k := range kernels {
			i := (s*kernels + k) % len(kernelNames)
			sep()
			fmt.Fprintf(bw, `  {"ph": "X", "cat": "cpu_op", "name": "%s", "pid": %d, "tid": %d, "ts": %.3f, "dur": 9.000, "args": {"External id": %d, "Sequence number": %d, "Fwd thread id": 0, "Record function id": 0, "Ev Idx": %d}}`,
				opNames[i], pid, tid, ts, ext, ext, ext)
			sep()
			fmt.Fprintf(bw, `  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": %d, "tid": %d, "ts": %.3f, "dur": 5.000, "args": {"External id": %d, "cbid": 211, "correlation": %d}}`,
				pid, tid, ts+1, ext, corr)
			stream := 7
			if i == len(kernelNames)-1 {
				stream = 20
			}
			sep()
			fmt.Fprintf(bw, `  {"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": %d, "ts": %.3f, "dur": %.3f, "args": {"External id": %d, "queued": 0, "device": 0, "context": 1, "stream": %d, "correlation": %d, "registers per thread": 64, "shared memory": 16384, "blocks per SM": 3.878788, "warps per SM": 15.515152, "grid": [512, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %%": 25}}`,
				kernelNames[i], stream, ts+8, float64(2+i*3), ext, stream, corr)
			if o.Syncs && k%18 == 17 {
				sep()
				fmt.Fprintf(bw, `  {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": %d, "tid": %d, "ts": %.3f, "dur": 1.500, "args": {"External id": %d}}`, pid, tid, ts+9.5, ext+1)
				sep()
				fmt.Fprintf(bw, `  {"ph": "X", "cat": "cpu_op", "name": "aten::to", "pid": %d, "tid": %d, "ts": %.3f, "dur": 2.500, "args": {"External id": %d}}`, pid, tid, ts+9.2, ext)
				ext += 2
			}
			ts += 12
			corr++
			ext++
		}
		if o.Syncs {
			sep()
			fmt.Fprintf(bw, `  {"ph": "X", "cat": "cpu_op", "name": "aten::_local_scalar_dense", "pid": %d, "tid": %d, "ts": %.3f, "dur": 38.000, "args": {"External id": %d}}`, pid, tid, ts+6, ext+1)
			sep()
			fmt.Fprintf(bw, `  {"ph": "X", "cat": "cpu_op", "name": "aten::item", "pid": %d, "tid": %d, "ts": %.3f, "dur": 40.000, "args": {"External id": %d}}`, pid, tid, ts+5, ext)
			sep()
			fmt.Fprintf(bw, `  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": %d, "tid": %d, "ts": %.3f, "dur": 30.000, "args": {"External id": %d, "cbid": 131, "correlation": %d}}`, pid, tid, ts+10, ext+1, corr)
			corr++
			ext += 2
		}
		ts = stepStart + stepDur + 5
	}
	bw.WriteString("\n  ],\n  \"traceName\": \"synthetic\"\n}\n")
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	return cw.n, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
