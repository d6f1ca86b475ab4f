// Package trace reads profiler timelines: the Chrome-trace JSON that the
// PyTorch profiler (Kineto) writes, plain or gzipped, one event at a time, so
// a trace of gigabytes is never held whole ([pytorch-profiler]).
package trace

// Kind is what an event is on the timeline, from its "cat" (and, for
// ProfilerStep#N, its name).
type Kind uint8

// The kinds Kineto writes. Kinds the analysis does not use are Other.
const (
	Other         Kind = iota
	Kernel             // cat "kernel": a GPU kernel
	Memcpy             // cat "gpu_memcpy"
	Memset             // cat "gpu_memset"
	Runtime            // cat "cuda_runtime": cudaLaunchKernel, cudaStreamSynchronize…
	Driver             // cat "cuda_driver": cuLaunchKernel…
	CPUOp              // cat "cpu_op": aten::… operators
	Python             // cat "python_function" (with_stack=True)
	Annotation         // cat "user_annotation": record_function ranges, DataLoader, Optimizer
	ProfilerStep       // a "ProfilerStep#N" range
	GPUAnnotation      // cat "gpu_user_annotation"
	Sync               // cat "cuda_sync": the GPU side of a synchronisation
)

var kindNames = [...]string{"other", "kernel", "memcpy", "memset", "cuda_runtime", "cuda_driver",
	"cpu_op", "python_function", "user_annotation", "profiler_step", "gpu_user_annotation", "cuda_sync"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "other"
}

// GPU says whether the event ran on the device (HTA counts these as GPU
// kernels: [hta-docs] §Temporal breakdown).
func (k Kind) GPU() bool { return k == Kernel || k == Memcpy || k == Memset }

// Event is one complete ("ph":"X") event. Times are microseconds, as the
// trace writes them (fractions where the trace has nanosecond resolution).
type Event struct {
	Kind   Kind
	Name   string
	PID    int64 // the process on the CPU; the device on the GPU
	TID    int64 // the thread on the CPU; the stream on the GPU
	TS     float64
	Dur    float64
	Stream int   // -1 on CPU events
	Device int   // -1 on CPU events
	Corr   int64 // "correlation": ties a launch to its kernel; 0 when absent
	Ext    int64 // "External id": ties a kernel to the operator that launched it
	Bytes  int64 // memcpy/memset size; 0 when absent
	// Proc is the process an event belongs to where one file holds several
	// (an nsys export of a multi-process run: its globalPid, GPU activity
	// included); 0 in a Kineto trace, which is one process.
	Proc int64
}

// End is when the event finished.
func (e Event) End() float64 { return e.TS + e.Dur }

// Device is one entry of the trace's deviceProperties.
type Device struct {
	ID           int    `json:"id"`
	Name         string `json:"name"`
	TotalMem     int64  `json:"totalGlobalMem"`
	ComputeMajor int    `json:"computeMajor"`
	ComputeMinor int    `json:"computeMinor"`
	NumSMs       int    `json:"numSms"`
}

// Meta is what the trace says about itself, and what the reader counted.
type Meta struct {
	Rank      int // distributedInfo.rank; -1 when the trace has none
	WorldSize int
	Backend   string
	Devices   []Device
	// BaseTimeNanoseconds is the wall-clock epoch of ts 0 where the trace
	// writes one (newer Kineto); 0 when absent.
	BaseTimeNanoseconds int64
	Events              int // complete events read
	GPUEvents           int // kernels, memcpys and memsets among them
	// Platform is "cuda", "rocm" or "mtia", from the device names and the
	// runtime's function names; "" when nothing says.
	Platform string
}
