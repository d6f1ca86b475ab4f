package timeline

import (
	"cmp"
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

// merge is the union of intervals, sorted ([hta-docs] §Temporal breakdown:
// merge_kernel_intervals).
func merge(iv []interval) []interval {
	slices.SortFunc(iv, func(a, b interval) int { return cmp.Compare(a.start, b.start) })
	out := iv[:0]
	for _, v := range iv {
		if n := len(out); n > 0 && v.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, v.end)
			continue
		}
		out = append(out, v)
	}
	return out
}

func total(iv []interval) float64 {
	t := 0.0
	for _, v := range iv {
		t += v.end - v.start
	}
	return t
}

// overlap is the length of the intersection of two merged interval lists.
func overlap(a, b []interval) float64 {
	t, i, j := 0.0, 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i].start, b[j].start), min(a[i].end, b[j].end)
		if hi > lo {
			t += hi - lo
		}
		if a[i].end < b[j].end {
			i++
		} else {
			j++
		}
	}
	return t
}

// analysed is the GPU events HTA analyses: with two or more ProfilerSteps,
// those launched before the last step began, the last being cut short by
// the profiler's stop ([hta-docs] §Trace filtering).
func (b *Builder) analysed() []gpuEvent {
	names := map[int32]bool{}
	last := 0.0
	for _, s := range b.steps {
		names[s.name] = true
		last = max(last, s.ts)
	}
	if len(names) < 2 {
		return b.gpu
	}
	// In place: the events are the builder's largest holding, and nothing
	// reads the unfiltered list after this.
	b.gpu = slices.DeleteFunc(b.gpu, func(g gpuEvent) bool { return !g.launched || g.lts >= last })
	return b.gpu
}

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

// breakdown also returns the merged busy intervals, which the idle's causes
// are read against (causes.go).
func (b *Builder) breakdown(gpu []gpuEvent) (Breakdown, []interval) {
	var comp, comm []interval
	all := make([]interval, 0, len(gpu)) // sized once, as kernels' figures
	for _, g := range gpu {
		v := interval{g.ts, g.end}
		all = append(all, v)
		switch b.classOf(g.name).typ {
		case Compute:
			comp = append(comp, v)
		case Comm:
			comm = append(comm, v)
		}
	}
	all, comp, comm = merge(all), merge(comp), merge(comm)
	if len(all) == 0 {
		return Breakdown{}, nil
	}
	d := Breakdown{SpanUS: all[len(all)-1].end - all[0].start}
	busy := total(all)
	d.IdleUS, d.ComputeUS, d.CommUS = d.SpanUS-busy, total(comp), total(comm)
	d.NonComputeUS = busy - d.ComputeUS
	if d.CommUS > 0 {
		d.OverlapShare = 100 * overlap(comm, comp) / d.CommUS
	}
	return d, all
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

func (b *Builder) idleByStream(gpu []gpuEvent) []StreamIdle {
	// Indices sorted by stream, then time, instead of a copy of the events
	// per stream (4 bytes an event, not 56).
	order := make([]int32, len(gpu))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(x, y int32) int {
		if c := cmp.Compare(gpu[x].stream, gpu[y].stream); c != 0 {
			return c
		}
		return cmp.Compare(gpu[x].ts, gpu[y].ts)
	})
	var out []StreamIdle
	for len(order) > 0 {
		n := 1
		for n < len(order) && gpu[order[n]].stream == gpu[order[0]].stream {
			n++
		}
		idx := order[:n]
		order = order[n:]
		st := StreamIdle{Stream: int(gpu[idx[0]].stream)}
		for _, i := range idx {
			if k := &gpu[i]; b.classOf(k.name).typ == Compute {
				st.ComputeUS += k.end - k.ts
			}
		}
		for j := 1; j < len(idx); j++ {
			prev, k := &gpu[idx[j-1]], &gpu[idx[j]]
			prevEnd, gap := prev.end, k.ts-prev.end
			switch {
			case k.launched && k.lts > prevEnd:
				st.HostWaitUS += gap
			case gap < kernelWaitUS:
				st.KernelWaitUS += gap
			default:
				st.OtherUS += gap
			}
		}
		out = append(out, st)
	}
	return out
}
