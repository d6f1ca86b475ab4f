package timeline

import (
	"math"
	"sort"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// stream is what the Builder counts of the GPU events it lets go, instead
// of keeping them: the sums that need no order as each comes (kernels,
// copies, steps), and through a bounded buffer sorted by start the ones HTA reads
// in time order (the merged busy intervals, each stream's gaps, the idle's
// causes). docs/ARCHITECTURE.md, "Reading a trace", has the design.
type stream struct {
	kern    kernelAcc
	copies  Copies
	perStep stepAcc
	kept    int // GPU events analysed
	counted bool
	maxLTS  float64 // the latest launch among them

	// order is the events not yet read in time order: sorted and read
	// half at a time, so an event may come up to maxOrdered/2 events late.
	order    []ordered
	unsorted bool
	seq      int64
	popped   float64 // the start of the last event read in time order
	all      mergeAcc
	comp     mergeAcc
	comm     mergeAcc
	overlap  overlapAcc
	streams  map[int32]*streamAcc
	causes   Causes
	gapsTo   float64 // the idle's causes are read up to here

	loaderIv []interval // the DataLoader's ranges, merged and sorted
	syncEnds []span     // the sync calls by end

	late lateness
}

// lateness counts what came later than the bounded queue and buffer could
// wait for: each makes the figures approximate (Rank.Approximate).
type lateness struct {
	order     int // GPU events started before one already read in time order
	joins     int // launches that came after their event was let go
	steps     int // steps that began before a kernel already placed
	cpu       int // DataLoader ranges and syncs that came after their gap was read
	undecided int // events let go before their launch or step was known
	// undecidedLTS is the latest launch among them, undecidedBare how many
	// had none: at the end these say whether the guess could have been wrong.
	undecidedLTS  float64
	undecidedBare int
}

func newStream() stream {
	return stream{streams: map[int32]*streamAcc{}, popped: math.Inf(-1), gapsTo: math.Inf(-1),
		late: lateness{undecidedLTS: math.Inf(-1)}}
}

// maxOrdered bounds the buffer that puts the GPU events in time order. Real
// Kineto traces write each stream's events in order (docs/benchmarks.md).
const maxOrdered = 1 << 16

// take counts one analysed GPU event, in the trace's order.
func (b *Builder) take(g gpuEvent) {
	b.kept++
	if g.launched {
		if !b.counted || g.lts > b.maxLTS {
			b.maxLTS = g.lts
		}
		b.counted = true
	}
	cl := b.classOf(g.name)
	b.kern.add(b, g, cl)
	b.addCopy(g)
	b.perStep.add(b, g, cl)
	o := ordered{g, b.seq}
	b.seq++
	if n := len(b.order); n > 0 && o.less(b.order[n-1]) {
		b.unsorted = true
	}
	b.order = append(b.order, o)
	if len(b.order) >= maxOrdered {
		b.emit(maxOrdered / 2)
	}
}

// emit sorts the buffer (a trace mostly in order costs one pass) and reads
// its first n events in order, keeping the rest to sort with those to come.
func (b *Builder) emit(n int) {
	if b.unsorted {
		// sort's one copy, not a generic one (the binary's size): only an
		// out-of-order trace pays for it.
		sort.Slice(b.order, func(i, j int) bool { return b.order[i].less(b.order[j]) })
		b.unsorted = false
	}
	for _, o := range b.order[:n] {
		b.inOrder(o.g)
	}
	b.order = b.order[:copy(b.order, b.order[n:])]
}

// flush ends the trace: every held event is decided and read in order.
func (b *Builder) flush() {
	b.drain(true)
	b.emit(len(b.order))
	if v, ok := b.all.close(); ok {
		b.all.last = v.end
	}
	if v, ok := b.comp.close(); ok {
		b.overlap.comp.push(v)
	}
	if v, ok := b.comm.close(); ok {
		b.overlap.comm.push(v)
	}
	b.overlap.step(math.Inf(1), math.Inf(1))
}

// inOrder reads one event in order of start.
func (b *Builder) inOrder(g gpuEvent) {
	if g.ts < b.popped {
		b.late.order++
	}
	b.popped = max(b.popped, g.ts)
	v := interval{g.ts, g.end}
	if c, ok := b.all.add(v); ok {
		b.gap(interval{c.end, v.start})
	}
	cl := b.classOf(g.name)
	switch cl.typ {
	case Compute:
		if c, ok := b.comp.add(v); ok {
			b.overlap.comp.push(c)
		}
	case Comm:
		if c, ok := b.comm.add(v); ok {
			b.overlap.comm.push(c)
		}
	}
	b.overlap.step(b.comp.next(b.popped), b.comm.next(b.popped))
	s := b.streams[g.stream]
	if s == nil {
		s = &streamAcc{st: StreamIdle{Stream: int(g.stream)}}
		b.streams[g.stream] = s
	}
	s.add(g, cl.typ == Compute)
}

type ordered struct {
	g   gpuEvent
	seq int64 // the order taken: equal starts keep it, as a stable sort
}

func (o ordered) less(p ordered) bool { return o.g.ts < p.g.ts || o.g.ts == p.g.ts && o.seq < p.seq }

// mergeAcc is merge (breakdown.go) over intervals that come in order of
// start: the open interval, and the total of those closed.
type mergeAcc struct {
	cur         interval
	open        bool
	total       float64
	first, last float64
}

// add extends the open interval or closes it, returning the closed one.
func (m *mergeAcc) add(v interval) (interval, bool) {
	if m.open && v.start <= m.cur.end {
		m.cur.end = max(m.cur.end, v.end)
		return interval{}, false
	}
	c, ok := m.close()
	if !ok {
		m.first = v.start
	}
	m.cur, m.open = v, true
	return c, ok
}

func (m *mergeAcc) close() (interval, bool) {
	if !m.open {
		return interval{}, false
	}
	m.open = false
	m.total += m.cur.end - m.cur.start
	m.last = m.cur.end
	return m.cur, true
}

// next is the earliest start an interval closed later can have.
func (m *mergeAcc) next(pos float64) float64 {
	if m.open {
		return m.cur.start
	}
	return pos
}

// overlapAcc is overlap (breakdown.go) of the communication and computation
// intervals as they close: the same pairs in the same order, so the same sum.
// An interval that no later one of the other kind can reach leaves at once.
type overlapAcc struct {
	comm, comp ivQueue
	t          float64
}

// ivQueue is a queue of intervals that reuses its array.
type ivQueue struct {
	v    []interval
	head int
}

func (q *ivQueue) push(v interval) {
	if q.head > 0 && q.head*2 >= len(q.v) {
		q.v, q.head = q.v[:copy(q.v, q.v[q.head:])], 0
	}
	q.v = append(q.v, v)
}

func (q *ivQueue) len() int        { return len(q.v) - q.head }
func (q *ivQueue) first() interval { return q.v[q.head] }
func (q *ivQueue) drop()           { q.head++ }

// step compares what both sides hold; compNext and commNext are the
// earliest starts still to close on each side.
func (o *overlapAcc) step(compNext, commNext float64) {
	for {
		switch {
		case o.comm.len() > 0 && o.comp.len() > 0:
			a, c := o.comm.first(), o.comp.first()
			if lo, hi := max(a.start, c.start), min(a.end, c.end); hi > lo {
				o.t += hi - lo
			}
			if a.end < c.end {
				o.comm.drop()
			} else {
				o.comp.drop()
			}
		case o.comm.len() > 0 && o.comm.first().end < compNext:
			o.comm.drop()
		case o.comp.len() > 0 && o.comp.first().end < commNext:
			o.comp.drop()
		default:
			return
		}
	}
}

// streamAcc is one stream's idle by cause, its events read in order.
type streamAcc struct {
	st      StreamIdle
	prevEnd float64
	seen    bool
}

func (s *streamAcc) add(k gpuEvent, compute bool) {
	if compute {
		s.st.ComputeUS += k.end - k.ts
	}
	if s.seen {
		gap := k.ts - s.prevEnd
		switch {
		case k.launched && k.lts > s.prevEnd:
			s.st.HostWaitUS += gap
		case gap < kernelWaitUS:
			s.st.KernelWaitUS += gap
		default:
			s.st.OtherUS += gap
		}
	}
	s.prevEnd, s.seen = k.end, true
}

func (b *Builder) addCopy(g gpuEvent) {
	if g.kind == trace.Memcpy {
		b.copies.add(b.names[g.name], g)
	}
}
