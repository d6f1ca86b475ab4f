package timeline

import (
	"cmp"
	"math"
	"slices"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// Activity is what a GPU stream is busy with, as a strip colours it.
type Activity uint8

// The activities of a strip: HTA's kernel types ([hta-docs] §Kernel types)
// and the GPU side of a synchronisation (Kineto's cuda_sync).
const (
	ActCompute Activity = iota
	ActComm
	ActMemory
	ActSync
	Activities // how many there are
)

// StripBins is how many bins each strip keeps: a 200-column screen can
// zoom 20× into a trace before a column is narrower than a bin.
const StripBins = 4096

// Strips is the occupancy of every GPU stream of a trace (or of several
// ranks), downsampled into StripBins bins each in one pass: what the
// replay of a trace draws, without holding its events. A strip's range
// doubles (bins merged pairwise) when an event falls outside it, so the
// events may come in any order and the trace's span need not be known.
type Strips struct {
	names []string
	acts  []Activity // by name id
	ids   map[string]int32
	by    map[stripKey]*Strip
	// fixed, from and to: the bins cover [from, to) and events outside
	// are dropped (a zoomed window read again at full resolution).
	fixed    bool
	from, to float64
	Events   int // GPU events added
	// list and span are List's and Span's answers, kept until the next
	// Add or SetRank: a screen asks for them many times a frame.
	list []*Strip
	span *[2]float64
}

type stripKey struct {
	src            int
	proc           int64
	device, stream int
}

// Strip is one stream's bins.
type Strip struct {
	Src    int   // the caller's source (a file)
	Proc   int64 // the process in it (trace.Event.Proc)
	Rank   int   // set by SetRank; -1 when the trace names none
	Device int
	Stream int
	origin float64 // µs of bin 0's start
	width  float64 // µs per bin; 0 until the first event
	busy   [][Activities]float32
	top    []binTop
}

// binTop is the longest event overlapping a bin: what the cursor names.
type binTop struct {
	ts   float64
	dur  float32
	name int32 // -1: none
	act  Activity
}

// NewStrips is an empty set of strips that grows to whatever span the
// events cover.
func NewStrips() *Strips {
	return &Strips{ids: map[string]int32{}, by: map[stripKey]*Strip{}}
}

// NewStripsIn keeps only [from, to) (µs), at StripBins bins over it.
func NewStripsIn(from, to float64) *Strips {
	s := NewStrips()
	if !(math.Abs(from) < maxTS) {
		from = 0
	}
	if !(to > from && to-from < maxTS) {
		to = from + 1
	}
	s.fixed, s.from, s.to = true, from, to
	return s
}

// Add takes one event of source src (a file); CPU events are ignored.
func (s *Strips) Add(src int, e trace.Event) {
	if !e.Kind.GPU() && e.Kind != trace.Sync || e.Stream < 0 || !(math.Abs(e.TS) < maxTS) {
		return
	}
	end := e.TS
	if e.Dur > 0 && e.Dur < maxTS { // a damaged duration (negative, NaN, huge) draws as an instant
		end += e.Dur
	}
	if s.fixed && (end <= s.from || e.TS >= s.to) {
		return
	}
	k := stripKey{src, e.Proc, e.Device, e.Stream}
	st := s.by[k]
	if st == nil {
		st = &Strip{Src: src, Proc: e.Proc, Rank: -1, Device: e.Device, Stream: e.Stream}
		st.busy = make([][Activities]float32, StripBins)
		st.top = make([]binTop, StripBins)
		for i := range st.top {
			st.top[i].name = -1
		}
		if s.fixed {
			st.origin, st.width = s.from, (s.to-s.from)/StripBins
		}
		s.by[k] = st
	}
	s.Events++
	s.list, s.span = nil, nil
	name := s.intern(e.Name, e.Kind)
	st.add(e.TS, end, s.acts[name], name, s.fixed)
}

// maxTS bounds the times a strip takes (µs): 3000 years, well past any
// epoch a trace counts from; a damaged time beyond would double the bins'
// width past what a float holds.
const maxTS = 1e17

// activityOf is what an event of that kind and name is, worked out once
// per name (the kernel types are regular expressions).
func activityOf(k trace.Kind, name string) Activity {
	switch k {
	case trace.Kernel:
		switch kernelType(name) {
		case Comm:
			return ActComm
		case Memory:
			return ActMemory
		}
		return ActCompute
	case trace.Sync:
		return ActSync
	}
	return ActMemory // memcpy, memset
}

// intern is the name's id; a name is one kind of event (a kernel's name
// is no copy's).
func (s *Strips) intern(name string, k trace.Kind) int32 {
	if id, ok := s.ids[name]; ok {
		return id
	}
	id := int32(len(s.names))
	s.names = append(s.names, name)
	s.acts = append(s.acts, activityOf(k, name))
	s.ids[name] = id
	return id
}

// add spreads [ts, end) over the bins it overlaps, growing the range first.
func (st *Strip) add(ts, end float64, act Activity, name int32, fixed bool) {
	if st.width == 0 {
		st.origin, st.width = ts, max(end-ts, 1)/StripBins*4
	}
	for !fixed && ts < st.origin {
		st.grow(true)
	}
	for !fixed && end > st.origin+st.width*StripBins {
		st.grow(false)
	}
	first := max(0, int((ts-st.origin)/st.width))
	for i := first; i < StripBins; i++ {
		lo := st.origin + float64(i)*st.width
		if lo >= end && i > first {
			break
		}
		hi := lo + st.width
		st.busy[i][act] += float32(min(end, hi) - max(ts, lo))
		if t := &st.top[i]; t.name < 0 || end-ts > float64(t.dur) {
			*t = binTop{ts: ts, dur: float32(end - ts), name: name, act: act}
		}
	}
}

// grow doubles the bins' width, merging them pairwise; left moves the
// origin back so the old range is the new one's right half.
func (st *Strip) grow(left bool) {
	half := StripBins / 2
	merge := func(dst, a, b int) {
		for k := range st.busy[dst] {
			st.busy[dst][k] = st.busy[a][k] + st.busy[b][k]
		}
		ta, tb := st.top[a], st.top[b]
		if tb.name >= 0 && (ta.name < 0 || tb.dur > ta.dur) {
			ta = tb
		}
		st.top[dst] = ta
	}
	clear := func(i int) { st.busy[i], st.top[i] = [Activities]float32{}, binTop{name: -1} }
	if left {
		for i := StripBins - 1; i >= half; i-- {
			merge(i, 2*(i-half), 2*(i-half)+1)
		}
		for i := range half {
			clear(i)
		}
		st.origin -= st.width * StripBins
	} else {
		for i := range half {
			merge(i, 2*i, 2*i+1)
		}
		for i := half; i < StripBins; i++ {
			clear(i)
		}
	}
	st.width *= 2
}

// SetRank names the rank of the strips of process proc of source src,
// once the trace has said it (Kineto writes distributedInfo after the
// events, often; an nsys export's processes are numbered once read).
func (s *Strips) SetRank(src int, proc int64, rank int) {
	s.list = nil
	for _, st := range s.by {
		if st.Src == src && st.Proc == proc {
			st.Rank = rank
		}
	}
}

// List is the strips ordered by rank, source, device and stream.
func (s *Strips) List() []*Strip {
	if s.list != nil {
		return s.list
	}
	out := make([]*Strip, 0, len(s.by))
	for _, st := range s.by {
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b *Strip) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Src, b.Src), cmp.Compare(a.Proc, b.Proc), cmp.Compare(a.Device, b.Device), cmp.Compare(a.Stream, b.Stream))
	})
	s.list = out
	return out
}

// Span is the time the strips' bins cover (µs); ok is false without any.
func (s *Strips) Span() (from, to float64, ok bool) {
	if s.fixed {
		return s.from, s.to, len(s.by) > 0
	}
	if s.span != nil {
		return s.span[0], s.span[1], true
	}
	from, to = math.Inf(1), math.Inf(-1)
	for _, st := range s.by {
		lo, hi := st.used()
		from, to = min(from, lo), max(to, hi)
	}
	if len(s.by) > 0 {
		s.span = &[2]float64{from, to}
	}
	return from, to, len(s.by) > 0
}

// used is the span of the bins holding anything.
func (st *Strip) used() (from, to float64) {
	lo, hi := 0, StripBins-1
	for lo < hi && st.top[lo].name < 0 {
		lo++
	}
	for hi > lo && st.top[hi].name < 0 {
		hi--
	}
	return st.origin + float64(lo)*st.width, st.origin + float64(hi+1)*st.width
}

// Resolution is the width of one bin of the coarsest strip (µs).
func (s *Strips) Resolution() float64 {
	w := 0.0
	for _, st := range s.by {
		w = max(w, st.width)
	}
	return w
}

// Clone is a copy the caller may read while s goes on growing; it is not
// to be added to (it keeps no name index).
func (s *Strips) Clone() *Strips {
	c := &Strips{names: slices.Clone(s.names), by: make(map[stripKey]*Strip, len(s.by)),
		fixed: s.fixed, from: s.from, to: s.to, Events: s.Events}
	for k, st := range s.by {
		cp := *st
		cp.busy, cp.top = slices.Clone(st.busy), slices.Clone(st.top)
		c.by[k] = &cp
	}
	return c
}
