// Package timeline computes what a profiler trace proves, with the figures
// Holistic Trace Analysis made standard and defined the same way ([hta-docs]),
// and turns them into confirmed findings of the dashboard's rules. It reads
// no files: the caller feeds it sampler/trace events, one rank at a time.
package timeline

import (
	"strings"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// gpuEvent is a kernel, memcpy or memset, kept compact: a large trace has
// millions of them and names repeat, so names are interned.
type gpuEvent struct {
	ts, end float64
	// lts and ldur are the start and duration of the runtime call that
	// launched it (same correlation id), joined as the pair completes so
	// no map of every launch is kept; launched says there was one.
	lts, ldur float64
	bytes     int64
	stream    int32
	name      int32
	kind      trace.Kind
	launched  bool
}

func (g *gpuEvent) attach(l launch) { g.lts, g.ldur, g.launched = l.ts, l.dur, true }

// span is a CPU range the analysis needs later (a step, a sync call, a
// DataLoader op, a caller of a sync).
type span struct {
	ts, end float64
	tid     int64
	name    int32
}

// launch is the runtime call that queued a GPU event (same correlation).
type launch struct {
	ts, dur float64
}

// Builder collects one rank's events. It keeps no list of the GPU events:
// each is held only until its launch and the step it belongs to are known
// (queue.go), then counted into the figures that need no order and, through
// a bounded buffer sorted by start, into those read in time order (stream.go). What it
// keeps is the CPU ranges it needs (steps, syncs, DataLoader ops), which grow
// with the steps, not with the kernels, and the sync-making operators, a few
// bytes each (callers.go).
type Builder struct {
	names []string
	ids   map[string]int32
	// gpuSeen counts the GPU events added, kept or not.
	gpuSeen int
	queue
	stream
	// launches are runtime calls not yet joined to a GPU event, pending
	// the GPU events (their indices) not yet joined to a launch: whichever
	// half of a pair comes first waits here, so both hold only the pairs
	// in flight, not the trace. A CUDA graph's launch queues many kernels
	// under one correlation id, so joined launches stay in recent, the
	// last recentLaunches of them, for the graph's later kernels.
	// launches are bounded: runtime calls that queue nothing on the GPU
	// (cudaEventRecord, a sync) still carry a correlation id, and would
	// otherwise stay to the end. evicted is the largest id pushed out.
	launches lastN[launch]
	evicted  int64
	gaveUp   lastN[bool]       // events let go unlaunched before the trace's end
	pending  map[int64][]int64 // absolute queue positions (queue.go)
	recent   lastN[launch]
	steps    []span
	byStart  []span // steps sorted by start, for inStep while streaming
	stepIDs  map[int32]bool
	last     float64 // the latest step's start
	syncs    []span
	loaders  []span
	callers  callers // ops that synchronise inside (aten::item…), for the sync calls' callers (callers.go)
	devices  map[int]int
	classes  []*class // by name id, filled on first use (classes.go)
}

// New is an empty builder.
func New() *Builder {
	return &Builder{ids: map[string]int32{}, launches: newLastN[launch](maxLaunches), gaveUp: newLastN[bool](maxGaveUp), recent: newLastN[launch](recentLaunches), pending: map[int64][]int64{}, devices: map[int]int{},
		stepIDs: map[int32]bool{}, stream: newStream()}
}

func (b *Builder) intern(s string) int32 {
	if id, ok := b.ids[s]; ok {
		return id
	}
	id := int32(len(b.names))
	b.names = append(b.names, s)
	b.ids[s] = id
	return id
}

// Add takes one event of the rank's trace, in any order.
func (b *Builder) Add(e trace.Event) error {
	switch {
	case e.Kind.GPU():
		h := held{g: gpuEvent{ts: e.TS, end: e.End(), bytes: e.Bytes, stream: int32(e.Stream), name: b.intern(e.Name), kind: e.Kind}, corr: e.Corr}
		b.joinGPU(&h)
		b.queue.items = append(b.queue.items, h)
		b.gpuSeen++
		b.devices[e.Device]++
		b.drain(false)
	case e.Kind == trace.Runtime || e.Kind == trace.Driver:
		if e.Corr != 0 {
			b.joinLaunch(e.Corr, launch{e.TS, e.Dur})
		}
		if isSync(e.Name) {
			b.addSync(b.span(e))
		}
	case e.Kind == trace.ProfilerStep:
		b.addStep(b.span(e))
	case isLoader(e.Name):
		b.addLoader(b.span(e))
	case isSyncCaller(e.Name):
		b.callers.add(e.TID, callerOp{e.TS, e.Dur, b.intern(e.Name)})
	}
	return nil
}

// joinGPU gives h its launch if that came first, else leaves h waiting
// for it (h is about to be appended to the queue).
func (b *Builder) joinGPU(h *held) {
	corr := h.corr
	if corr == 0 {
		return
	}
	if l, ok := b.launches.take(corr); ok {
		b.recent.put(corr, l)
	}
	if l, ok := b.recent.get(corr); ok {
		h.g.attach(l)
		return
	}
	h.waiting = true
	b.pending[corr] = append(b.pending[corr], b.queue.next())
}

// recentLaunches bounds the joined launches kept for a graph's later
// kernels: a graph's kernels follow its launch within a step, which holds
// far fewer launches than this.
const recentLaunches = 1 << 14

// joinLaunch gives the GPU events waiting for this launch their launch, or
// keeps it for the events to come.
func (b *Builder) joinLaunch(corr int64, l launch) {
	if idx, ok := b.pending[corr]; ok {
		for _, i := range idx {
			if h := b.queue.at(i); h != nil {
				h.g.attach(l)
				h.waiting = false
			} else {
				b.late.joins++ // its event already left the queue unlaunched
			}
		}
		delete(b.pending, corr)
		b.recent.put(corr, l)
		b.drain(false)
		return
	}
	if _, ok := b.gaveUp.take(corr); ok {
		b.late.joins++ // its event left the queue unlaunched when the queue was full
	}
	b.keepLaunch(corr, l)
}

// maxLaunches bounds the launches waiting for their GPU event: Kineto
// writes a launch right after its kernel, so few are ever in flight; the
// rest are calls with no GPU event.
const maxLaunches = 1 << 16

func (b *Builder) keepLaunch(corr int64, l launch) {
	if old, dropped := b.launches.put(corr, l); dropped {
		b.evicted = max(b.evicted, old)
	}
}

func (b *Builder) span(e trace.Event) span {
	return span{ts: e.TS, end: e.End(), tid: e.TID, name: b.intern(e.Name)}
}

// isSync: the runtime calls that block the host until the GPU catches up
// ([pytorch-cuda-notes] sync debug mode lists them).
func isSync(name string) bool {
	switch name {
	case "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cuStreamSynchronize", "cuCtxSynchronize":
		return true
	}
	return false
}

// isSyncCaller: the operators that make a host sync to read a value back
// (.item(), .cpu(), .tolist(), nonzero's size).
func isSyncCaller(name string) bool {
	switch name {
	case "aten::item", "aten::_local_scalar_dense", "aten::nonzero", "aten::is_nonzero", "aten::to", "aten::copy_", "aten::cpu":
		return true
	}
	return false
}

// isLoader: the DataLoader's iterator as record_function names it:
// "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__" and the
// multi-process "_MultiProcessingDataLoaderIter" ([torch-tb-profiler]).
func isLoader(name string) bool {
	return strings.Contains(name, "DataLoader") && strings.Contains(name, "__next__")
}
