package timeline

import (
	"cmp"
	"encoding/binary"
	"math"
	"sort"
)

// callers keeps the sync-making operators (aten::item, aten::to,
// aten::copy_…) that name a sync call's caller. Kineto writes every CPU
// operator before the first sync, so none can be let go while the trace is
// read; a large trace has one every few kernels (docs/benchmarks.md,
// "Sync-making operators kept compact"). So each thread keeps only the
// outermost of the operators it has seen recently (a sync inside an inner
// one is inside the outer one, and the outer is the one named), and encodes
// those in a few bytes each into chunks that are never copied to grow.
type callers struct {
	threads map[int64]*callerThread
	kept    int // operators encoded or in a tail
}

// callerOp is one operator; its end is ts+dur as trace.Event.End adds it,
// so the figures compare the same floats as before.
type callerOp struct {
	ts, dur float64
	name    int32
}

func (c callerOp) end() float64 { return c.ts + c.dur }

// encloses: a sync (or an operator) in [ts, end] runs inside c.
func (c callerOp) encloses(ts, end float64) bool { return c.ts <= ts && end <= c.end() }

// outer orders the operators that enclose one sync: the earliest start,
// then the latest end; the first kept of equal ones stays first.
func outer(a, b callerOp) bool { return a.ts < b.ts || a.ts == b.ts && a.end() > b.end() }

type callerThread struct {
	// tail is the last few kept, by start, not encoded yet: an operator
	// Kineto writes after those it encloses (older PyTorch writes a
	// parent after its children) replaces them here.
	tail     []callerOp
	chunks   [][]byte
	prevNS   int64   // the last encoded start in ns, for the next's delta
	lastTS   float64 // the last encoded start
	unsorted bool    // an encoded start before lastTS: sorted at the end
}

// callerTail bounds the operators a thread holds decoded: more than the
// depth the sync-making operators nest to (aten::to, _to_copy, copy_).
const callerTail = 8

// callerChunk is the largest chunk; a thread's first chunks are smaller.
const callerChunk = 16 << 10

func (cs *callers) add(tid int64, c callerOp) {
	if c.ts != c.ts || c.end() != c.end() {
		return // NaN: encloses nothing
	}
	if cs.threads == nil {
		cs.threads = map[int64]*callerThread{}
	}
	t := cs.threads[tid]
	if t == nil {
		t = &callerThread{}
		cs.threads[tid] = t
	}
	cs.kept += t.add(c)
}

// add keeps c on the thread unless a kept one in the tail encloses it, and
// drops those of the tail it encloses; it returns the change in the count.
func (t *callerThread) add(c callerOp) int {
	for _, k := range t.tail {
		if k.encloses(c.ts, c.end()) {
			return 0
		}
	}
	n := len(t.tail)
	t.tail = dropIf(t.tail, func(k callerOp) bool { return c.encloses(k.ts, k.end()) })
	dropped := n - len(t.tail)
	i := len(t.tail)
	for i > 0 && outer(c, t.tail[i-1]) {
		i--
	}
	t.tail = append(t.tail, c)
	copy(t.tail[i+1:], t.tail[i:])
	t.tail[i] = c
	if len(t.tail) > callerTail {
		t.encode(t.tail[0])
		t.tail = t.tail[:copy(t.tail, t.tail[1:])]
	}
	return 1 - dropped
}

// flush encodes the tail, at the end of the trace.
func (t *callerThread) flush() {
	for _, c := range t.tail {
		t.encode(c)
	}
	t.tail = t.tail[:0]
}

func (t *callerThread) encode(c callerOp) {
	if len(t.chunks) > 0 && c.ts < t.lastTS {
		t.unsorted = true
	}
	t.lastTS = c.ts
	var tmp [32]byte
	e := tmp[:0]
	e, t.prevNS = putTime(e, c.ts, t.prevNS)
	e, _ = putTime(e, c.dur, 0)
	e = binary.AppendUvarint(e, uint64(c.name))
	last := len(t.chunks) - 1
	if last < 0 || cap(t.chunks[last])-len(t.chunks[last]) < len(e) {
		size := 256
		if last >= 0 {
			size = min(callerChunk, 2*cap(t.chunks[last]))
		}
		t.chunks = append(t.chunks, make([]byte, 0, size))
		last++
	}
	t.chunks[last] = append(t.chunks[last], e...)
}

// putTime writes a time in µs: as a whole number of ns, the difference from
// prev, when that reads back as the same float (Kineto's µs with three
// decimals, nsys's ns), else as the float's 8 bytes. It returns the new prev.
func putTime(b []byte, v float64, prev int64) ([]byte, int64) {
	if x := v * 1000; x > -(1<<61) && x < 1<<61 {
		if n := int64(math.Round(x)); float64(n)/1000 == v {
			d := n - prev
			return binary.AppendUvarint(b, uint64(d<<1^d>>63)<<1), n
		}
	}
	b = binary.AppendUvarint(b, 1)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v)), prev
}

func getTime(b []byte, prev int64) (float64, int64, []byte) {
	u, k := binary.Uvarint(b)
	b = b[k:]
	if u&1 == 1 {
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), prev, b[8:]
	}
	u >>= 1
	n := prev + (int64(u>>1) ^ -int64(u&1))
	return float64(n) / 1000, n, b
}

// each decodes the thread's operators in the order they were encoded,
// until yield says stop.
func (t *callerThread) each(yield func(callerOp) bool) {
	prev := int64(0)
	for _, b := range t.chunks {
		for len(b) > 0 {
			var c callerOp
			var name uint64
			var k int
			c.ts, prev, b = getTime(b, prev)
			c.dur, _, b = getTime(b, 0)
			name, k = binary.Uvarint(b)
			b = b[k:]
			c.name = int32(name)
			if !yield(c) {
				return
			}
		}
	}
}

// of names each sync's caller (a name id, -1 for none): the outermost kept
// operator on its thread that encloses it. Each thread's operators are read
// once, in order of start, beside its syncs in order of start.
func (cs *callers) of(syncs []span) []int32 {
	out := make([]int32, len(syncs))
	idx := make([]int32, len(syncs))
	for i := range out {
		out[i], idx[i] = -1, int32(i)
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := syncs[idx[i]], syncs[idx[j]]
		return a.tid < b.tid || a.tid == b.tid && cmp.Less(a.ts, b.ts)
	})
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && syncs[idx[hi]].tid == syncs[idx[lo]].tid {
			hi++
		}
		if t := cs.threads[syncs[idx[lo]].tid]; t != nil {
			t.flush()
			t.resolve(syncs, idx[lo:hi], out)
		}
		lo = hi
	}
	return out
}

// resolve walks the thread's operators by start beside its syncs (idx, by
// start): active holds those begun by the sync's start that may still
// enclose it or a later one, which is as many as are open at once.
func (t *callerThread) resolve(syncs []span, idx []int32, out []int32) {
	// minEnd[k]: no sync from k on ends before it, so an operator that
	// ended earlier encloses none of them.
	minEnd := make([]float64, len(idx))
	m := math.Inf(1)
	for k := len(idx) - 1; k >= 0; k-- {
		if e := syncs[idx[k]].end; e < m {
			m = e
		}
		minEnd[k] = m
	}
	var active []callerOp
	k := 0
	place := func(k int) {
		s := syncs[idx[k]]
		active = dropIf(active, func(c callerOp) bool { return c.end() < minEnd[k] })
		best := -1
		for j, c := range active {
			if c.encloses(s.ts, s.end) && (best < 0 || outer(c, active[best])) {
				best = j
			}
		}
		if best >= 0 {
			out[idx[k]] = active[best].name
		}
	}
	t.sorted(func(c callerOp) bool {
		for k < len(idx) && !(syncs[idx[k]].ts >= c.ts) { // NaN too: it starts nowhere
			place(k)
			k++
		}
		if k == len(idx) {
			return false
		}
		if c.end() >= minEnd[k] {
			active = append(active, c)
		}
		return true
	})
	for ; k < len(idx); k++ {
		place(k)
	}
}

// sorted yields the thread's operators by start until yield says stop:
// straight from the chunks, or, where they were encoded out of order (more
// than callerTail places), from a sorted copy.
func (t *callerThread) sorted(yield func(callerOp) bool) {
	if !t.unsorted {
		t.each(yield)
		return
	}
	var all []callerOp
	t.each(func(c callerOp) bool { all = append(all, c); return true })
	sort.SliceStable(all, func(i, j int) bool { return all[i].ts < all[j].ts })
	for _, c := range all {
		if !yield(c) {
			return
		}
	}
}

// dropIf is slices.DeleteFunc without a generic copy of it (the
// binary's size).
func dropIf(s []callerOp, drop func(callerOp) bool) []callerOp {
	out := s[:0]
	for _, c := range s {
		if !drop(c) {
			out = append(out, c)
		}
	}
	return out
}
