package timeline

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// outermostCaller is the caller by definition, over every operator fed:
// on the sync's thread, enclosing it, the earliest start, then the latest
// end, then the first fed (aten::_to_copy is no caller).
func outermostCaller(ops []trace.Event, s trace.Event) string {
	best := -1
	for i, o := range ops {
		if !isSyncCaller(o.Name) || o.TID != s.TID || !(o.TS <= s.TS && s.End() <= o.End()) {
			continue
		}
		if b := ops[max(best, 0)]; best < 0 || o.TS < b.TS || o.TS == b.TS && o.End() > b.End() {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return ops[best].Name
}

// randomCallers is a thread's nested operators with syncs inside some,
// written children first (older PyTorch) or parents first (Kineto), some
// sharing their parent's start and end, some written out of place.
func randomCallers(r *rand.Rand, tid int64, integer bool) (ops, syncs []trace.Event) {
	names := []string{"aten::to", "aten::_to_copy", "aten::copy_", "aten::item", "aten::_local_scalar_dense", "aten::nonzero"}
	childrenFirst := r.IntN(2) == 0
	ts := 1e3 + float64(r.IntN(1000))
	if !integer {
		ts += 0.123
	}
	var tree func(ts, dur float64, depth int)
	tree = func(ts, dur float64, depth int) {
		o := trace.Event{Kind: trace.CPUOp, Name: names[r.IntN(len(names))], TID: tid, TS: ts, Dur: dur}
		if !childrenFirst {
			ops = append(ops, o)
		}
		if depth < 3 && r.IntN(3) > 0 {
			c := ts
			if r.IntN(4) > 0 {
				c += math.Floor(dur / 4)
			}
			d := dur - (c - ts)
			if r.IntN(4) > 0 {
				d = math.Floor(d / 2)
			}
			tree(c, d, depth+1)
		}
		if r.IntN(3) == 0 {
			syncs = append(syncs, trace.Event{Kind: trace.Runtime, Name: "cudaStreamSynchronize", TID: tid, TS: ts + dur/2, Dur: float64(r.IntN(3)) * dur / 8})
		}
		if childrenFirst {
			ops = append(ops, o)
		}
	}
	for range 400 {
		dur := float64(8 + r.IntN(200))
		tree(ts, dur, 0)
		if r.IntN(5) == 0 {
			syncs = append(syncs, trace.Event{Kind: trace.Runtime, Name: "cudaDeviceSynchronize", TID: tid, TS: ts + dur + 1, Dur: 1})
		}
		ts += dur + float64(r.IntN(20))
	}
	if r.IntN(3) == 0 { // a few written far out of place
		for range 5 {
			i, j := r.IntN(len(ops)), r.IntN(len(ops))
			ops[i], ops[j] = ops[j], ops[i]
		}
	}
	return ops, syncs
}

// Every sync is named the outermost operator enclosing it, however the
// operators were written, though the nested ones are not all kept.
func TestSyncCallerIsTheOutermost(t *testing.T) {
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 7))
		var ops, syncs []trace.Event
		for tid := range int64(1 + r.IntN(3)) {
			o, s := randomCallers(r, tid, seed%2 == 0)
			ops, syncs = append(ops, o...), append(syncs, s...)
		}
		r.Shuffle(len(syncs), func(i, j int) { syncs[i], syncs[j] = syncs[j], syncs[i] })
		b := New()
		for _, e := range append(ops, syncs...) {
			b.Add(e)
		}
		if n := b.callers.kept; n >= len(ops)*5/6 {
			t.Errorf("seed %d: kept %d of %d operators, nested ones too", seed, n, len(ops))
		}
		got := b.callers.of(b.syncs)
		for i, s := range syncs {
			name := ""
			if got[i] >= 0 {
				name = b.names[got[i]]
			}
			if want := outermostCaller(ops, s); name != want {
				t.Fatalf("seed %d: sync %d at %v (%v µs) on thread %d: caller %q, want %q", seed, i, s.TS, s.Dur, s.TID, name, want)
			}
		}
	}
}

// FuzzSyncCallers: operators and syncs at any time and of any duration a
// damaged trace could hold (NaN, ±Inf, negative), in any order: each sync
// is named the outermost operator that encloses it, as outermostCaller
// finds over every operator fed. A record is 9 bytes: what (an operator's
// name or a sync; the thread), then the start and duration as float32 bits.
func FuzzSyncCallers(f *testing.F) {
	rec := func(what byte, ts, dur float32) []byte {
		b := []byte{what}
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(ts))
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(dur))
	}
	f.Add(slices.Concat(rec(2, 10, 5), rec(1, 8, 10), rec(7, 12, 1), rec(3, 12, 1)))
	f.Add(slices.Concat(rec(1, 8, 10), rec(2, 8, 10), rec(7, 9, 0), rec(17, 9, 0)))
	f.Add(slices.Concat(rec(1, float32(math.NaN()), 10), rec(2, 0, float32(math.Inf(1))), rec(7, 5, -3), rec(7, float32(math.NaN()), 1), rec(4, 1e30, 0.1)))
	names := []string{"aten::to", "aten::copy_", "aten::item", "aten::_local_scalar_dense", "aten::nonzero", "aten::_to_copy"}
	f.Fuzz(func(t *testing.T, data []byte) {
		var ops, syncs []trace.Event
		b := New()
		for ; len(data) >= 9 && len(ops)+len(syncs) < 2000; data = data[9:] {
			e := trace.Event{TID: int64(data[0] >> 4 & 1),
				TS:  float64(math.Float32frombits(binary.LittleEndian.Uint32(data[1:]))),
				Dur: float64(math.Float32frombits(binary.LittleEndian.Uint32(data[5:])))}
			if w := int(data[0] & 15); w < len(names) {
				e.Kind, e.Name = trace.CPUOp, names[w]
				ops = append(ops, e)
			} else {
				e.Kind, e.Name = trace.Runtime, "cudaStreamSynchronize"
				syncs = append(syncs, e)
			}
			b.Add(e)
		}
		got := b.callers.of(b.syncs)
		for i, s := range syncs {
			name := ""
			if got[i] >= 0 {
				name = b.names[got[i]]
			}
			if want := outermostCaller(ops, s); name != want {
				t.Fatalf("sync %d at %v (%v µs) on thread %d: caller %q, want %q", i, s.TS, s.Dur, s.TID, name, want)
			}
		}
	})
}

// Times read back as the same floats, from the ns they are stored in or
// from their bits.
func FuzzCallerTime(f *testing.F) {
	for _, v := range []float64{0, 1623142623461280, 1000.123, 0.1 + 0.2, -5.5, math.Inf(1), math.NaN(), 1e300, math.SmallestNonzeroFloat64, 1.7e18} {
		f.Add(v, 1623142623461000.0)
	}
	f.Fuzz(func(t *testing.T, v, prev float64) {
		_, p := putTime(nil, prev, 0)
		b, _ := putTime(nil, v, p)
		got, _, rest := getTime(b, p)
		if math.Float64bits(got) != math.Float64bits(v) && !(got == 0 && v == 0) && !(v != v && got != got) || len(rest) != 0 {
			t.Fatalf("%v read back as %v (%d bytes left)", v, got, len(rest))
		}
	})
}

// copyCalls feeds n operators as the DataLoader's collate of TensorBoard's
// ResNet-50 trace writes them (sampler/trace/testdata): aten::copy_, then
// aten::to around another aten::copy_ (the child written first), in whole
// µs; 0.11 of them a GPU event in that trace.
func copyCalls(n int, add func(trace.Event) error) {
	ts := 1623142623461280.0
	for i := 0; i < n; i += 5 {
		add(trace.Event{Kind: trace.CPUOp, Name: "aten::copy_", TID: 1, TS: ts, Dur: 98})
		for j := range 2 {
			at := ts + 118 + float64(j*200)
			add(trace.Event{Kind: trace.CPUOp, Name: "aten::copy_", TID: 1, TS: at + 64, Dur: 84})
			add(trace.Event{Kind: trace.CPUOp, Name: "aten::to", TID: 1, TS: at, Dur: 155})
		}
		ts += 2066
	}
}

// heapOfCallers is the live heap a Builder holds after n such operators.
func heapOfCallers(n int) (uint64, *Builder) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b := New()
	copyCalls(n, b.Add)
	runtime.GC()
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc), b
}

// TestCallersKeptCompact: the sync-making operators take a few bytes each,
// not the 32 of a span in a slice that doubles (40-64 bytes an operator).
func TestCallersKeptCompact(t *testing.T) {
	const n = 500_000
	held, b := heapOfCallers(n)
	per := float64(held) / n
	t.Logf("%d operators: %.1f MB held, %.2f bytes an operator", n, float64(held)/1e6, per)
	if per > 6 {
		t.Errorf("%.1f bytes held per sync-making operator, want at most 6", per)
	}
	runtime.KeepAlive(b)
}

// Of the ResNet-50 collate's operators, written children first, only the
// outermost are kept, and read back in order without a sorted copy.
func TestNestedCallersNotKept(t *testing.T) {
	b := New()
	copyCalls(5000, b.Add)
	if b.callers.kept != 3000 {
		t.Errorf("kept %d operators of 5000, want the outermost 3000", b.callers.kept)
	}
	for _, th := range b.callers.threads {
		if th.unsorted {
			t.Error("operators written children first read as out of order")
		}
	}
}

// BenchmarkCallerMemory holds docs/benchmarks.md's figure ("Sync-making
// operators kept compact"): the heap held per sync-making operator, a million of
// them as the ResNet-50 trace writes them.
func BenchmarkCallerMemory(b *testing.B) {
	const n = 1_000_000
	var held uint64
	for b.Loop() {
		h, bl := heapOfCallers(n)
		held = max(held, h)
		runtime.KeepAlive(bl)
	}
	b.ReportMetric(float64(held)/1e6, "held-MB")
	b.ReportMetric(float64(held)/n, "held-B/op")
}
