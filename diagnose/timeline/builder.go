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
	corr    int64
	bytes   int64
	stream  int32
	name    int32
	kind    trace.Kind
}

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

// Builder collects one rank's events. What it keeps grows with the GPU
// events and launches, not with the CPU operators, which are most of a trace.
type Builder struct {
	names    []string
	ids      map[string]int32
	gpu      []gpuEvent
	launches map[int64]launch
	steps    []span
	syncs    []span
	loaders  []span
	callers  []span // ops that synchronise inside (aten::item…), for the sync calls' callers
	devices  map[int]int
	classes  []*class // by name id, filled on first use (classes.go)
}

// New is an empty builder.
func New() *Builder {
	return &Builder{ids: map[string]int32{}, launches: map[int64]launch{}, devices: map[int]int{}}
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
		b.gpu = append(b.gpu, gpuEvent{ts: e.TS, end: e.End(), corr: e.Corr, bytes: e.Bytes,
			stream: int32(e.Stream), name: b.intern(e.Name), kind: e.Kind})
		b.devices[e.Device]++
	case e.Kind == trace.Runtime || e.Kind == trace.Driver:
		if e.Corr != 0 {
			b.launches[e.Corr] = launch{e.TS, e.Dur}
		}
		if isSync(e.Name) {
			b.syncs = append(b.syncs, b.span(e))
		}
	case e.Kind == trace.ProfilerStep:
		b.steps = append(b.steps, b.span(e))
	case isLoader(e.Name):
		b.loaders = append(b.loaders, b.span(e))
	case isSyncCaller(e.Name):
		b.callers = append(b.callers, b.span(e))
	}
	return nil
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
