package timeline

import (
	"regexp"
	"slices"
)

// Kernel types as HTA groups them ([hta-docs] §Kernel types).
const (
	Compute = "compute"
	Comm    = "communication"
	Memory  = "memory"
)

var (
	commName   = regexp.MustCompile(`^(nccl|hccl)|ncclKernel`)
	memoryName = regexp.MustCompile(`^(Memcpy|Memset|dma)`)
)

// kernelType is HTA's get_kernel_type for CUDA names.
func kernelType(name string) string {
	switch {
	case commName.MatchString(name):
		return Comm
	case memoryName.MatchString(name):
		return Memory
	}
	return Compute
}

// kernelWaitUS is HTA's consecutive_kernel_delay default: a gap shorter than
// this, with the next kernel already queued, is launch overhead
// ([hta-docs] §Idle time).
const kernelWaitUS = 30

// interval is [start, end) in µs.
type interval struct{ start, end float64 }

// Breakdown is the temporal breakdown of one rank's GPU time.
type Breakdown struct {
	SpanUS       float64 `json:"span_us"` // first GPU event's start to the last one's end
	IdleUS       float64 `json:"idle_us"`
	ComputeUS    float64 `json:"compute_us"`
	NonComputeUS float64 `json:"non_compute_us"` // communication, memcpy, memset not under compute
	CommUS       float64 `json:"comm_us"`
	// OverlapShare is the share of communication time during which a
	// computation kernel runs ([hta-docs] §Overlap); 0 without communication.
	OverlapShare float64 `json:"comm_overlap_share"`
}

// Share of the span, in percent.
func (d Breakdown) Share(us float64) float64 {
	if d.SpanUS <= 0 {
		return 0
	}
	return 100 * us / d.SpanUS
}

// breakdown is the temporal breakdown of what was read in order (stream.go).
func (b *Builder) breakdown() Breakdown {
	if b.kept == 0 {
		return Breakdown{}
	}
	d := Breakdown{SpanUS: b.all.last - b.all.first}
	busy := b.all.total
	d.IdleUS, d.ComputeUS, d.CommUS = d.SpanUS-busy, b.comp.total, b.comm.total
	d.NonComputeUS = busy - d.ComputeUS
	if d.CommUS > 0 {
		d.OverlapShare = 100 * b.overlap.t / d.CommUS
	}
	return d
}

// StreamIdle is one stream's idle time by cause ([hta-docs] §Idle time).
type StreamIdle struct {
	Stream       int     `json:"stream"`
	HostWaitUS   float64 `json:"host_wait_us"`   // the next kernel was not yet launched
	KernelWaitUS float64 `json:"kernel_wait_us"` // queued, gap under 30 µs: launch overhead
	OtherUS      float64 `json:"other_us"`
	ComputeUS    float64 `json:"compute_us"` // its computation kernels' time
}

// IdleUS is the stream's idle time.
func (s StreamIdle) IdleUS() float64 { return s.HostWaitUS + s.KernelWaitUS + s.OtherUS }

// idleByStream is each stream's idle, by stream.
func (b *Builder) idleByStream() []StreamIdle {
	ids := make([]int32, 0, len(b.streams))
	for id := range b.streams {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []StreamIdle
	for _, id := range ids {
		out = append(out, b.streams[id].st)
	}
	return out
}
