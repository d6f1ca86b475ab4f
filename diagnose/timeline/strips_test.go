package timeline

import (
	"math"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

func kern(name string, stream int, ts, dur float64) trace.Event {
	return trace.Event{Kind: trace.Kernel, Name: name, Stream: stream, Device: 0, TS: ts, Dur: dur}
}

// Events in any order, the range growing both ways, still add up: the
// busy time drawn over the whole span is the events' time.
func TestStripsGrowBothWaysKeepTime(t *testing.T) {
	s := NewStrips()
	evs := []trace.Event{
		kern("gemm", 7, 5000, 10),
		kern("gemm", 7, 9000, 1000),              // past the first range: grows right
		kern("ncclKernel_AllReduce", 7, 100, 50), // before it: grows left
		{Kind: trace.Memcpy, Name: "Memcpy HtoD (Pageable -> Device)", Stream: 7, TS: 2000, Dur: 40},
		{Kind: trace.CPUOp, Name: "aten::mm", Stream: -1, TS: 0, Dur: 1e6}, // CPU: ignored
	}
	for _, e := range evs {
		s.Add(0, e)
	}
	if s.Events != 4 {
		t.Fatalf("%d GPU events, want 4", s.Events)
	}
	list := s.List()
	if len(list) != 1 {
		t.Fatalf("%d strips, want 1", len(list))
	}
	from, to, ok := s.Span()
	if !ok || from > 100 || to < 10000 {
		t.Fatalf("span [%v, %v), want to cover [100, 10000)", from, to)
	}
	cells := list[0].Columns(0, 12000, 120) // 100 µs a column
	busy := 0.0
	for _, c := range cells {
		busy += c.Busy * 100
	}
	if math.Abs(busy-1100) > 1 {
		t.Errorf("busy %.1f µs drawn, want 1100", busy)
	}
	if c := cells[95]; c.Act != ActCompute || c.Busy < 0.99 { // 9500 µs: inside the 1 ms gemm
		t.Errorf("column at 9.5 ms %+v, want compute, full", c)
	}
	if c := cells[1]; c.Act != ActComm || math.Abs(c.Busy-0.5) > 0.01 {
		t.Errorf("column at 100 µs %+v, want communication, half busy", c)
	}
	if c := cells[20]; c.Act != ActMemory {
		t.Errorf("column at 2 ms %+v, want memory", c)
	}
	if c := cells[60]; c.Busy != 0 {
		t.Errorf("column at 6 ms %+v, want idle", c)
	}
	h, ok := s.At(list[0], 9500, 100)
	if !ok || h.Name != "gemm" || h.Dur != 1000 || h.TS != 9000 {
		t.Errorf("at 9.5 ms: %+v %v, want the 1 ms gemm", h, ok)
	}
	if _, ok := s.At(list[0], 7000, 100); ok {
		t.Error("at 7 ms the stream was idle, yet an event is named")
	}
}

// A window read again keeps only what falls in it, at full resolution.
func TestStripsInWindow(t *testing.T) {
	s := NewStripsIn(1000, 1100)
	s.Add(0, kern("a", 1, 10, 5))
	s.Add(0, kern("b", 1, 1050, 1))
	s.Add(0, kern("c", 1, 5000, 5))
	if s.Events != 1 {
		t.Fatalf("%d events kept, want 1", s.Events)
	}
	if r := s.Resolution(); r > 0.03 {
		t.Errorf("resolution %v µs, want 100/%d", r, StripBins)
	}
	cells := s.List()[0].Columns(1000, 1100, 100)
	if cells[50].Busy < 0.99 || cells[49].Busy > 0.01 || cells[51].Busy > 0.01 {
		t.Errorf("cells around 1050: %+v %+v %+v", cells[49], cells[50], cells[51])
	}
}

// Strips of two sources sort by the rank each source names.
func TestStripsOrderByRank(t *testing.T) {
	s := NewStrips()
	s.Add(0, kern("a", 7, 0, 1))
	s.Add(1, kern("a", 7, 0, 1))
	s.Add(1, kern("a", 3, 0, 1))
	s.SetRank(0, 0, 1)
	s.SetRank(1, 0, 0)
	var got []int
	for _, st := range s.List() {
		got = append(got, st.Rank*100+st.Stream)
	}
	if len(got) != 3 || got[0] != 3 || got[1] != 7 || got[2] != 107 {
		t.Errorf("order %v, want [3 7 107]", got)
	}
	c := s.Clone()
	s.Add(0, kern("late", 7, 0, 1))
	if c.Events != 3 {
		t.Errorf("clone changed with its source: %d events", c.Events)
	}
}

// FuzzStrips: whatever times a damaged trace holds, the strips take them
// without a panic and draw shares between 0 and 1 (the trace reader
// fuzzes what comes before, sampler/trace).
func FuzzStrips(f *testing.F) {
	f.Add(0.0, 10.0, 5.0, 1.0, 1e15, 3.0)
	f.Add(-1e16, 1e16, 1e16, -5.0, 0.0, math.NaN())
	f.Add(1e300, 1.0, 0.0, math.Inf(1), 7.0, 1e-9)
	f.Add(math.NaN(), 1.0, math.Inf(-1), 2.0, 7.0, 1.0)
	f.Fuzz(func(t *testing.T, ts1, d1, ts2, d2, ts3, d3 float64) {
		for _, s := range []*Strips{NewStrips(), NewStripsIn(ts1, ts2)} {
			for _, e := range [][2]float64{{ts1, d1}, {ts2, d2}, {ts3, d3}} {
				s.Add(0, kern("k", 1, e[0], e[1]))
			}
			from, to, ok := s.Span()
			if !ok {
				continue
			}
			for _, st := range s.List() {
				for _, c := range st.Columns(from, to, 50) {
					if !(c.Busy >= 0 && c.Busy <= 1) {
						t.Fatalf("a share of %v", c.Busy)
					}
				}
				s.At(st, (from+to)/2, (to-from)/50)
			}
		}
	})
}
