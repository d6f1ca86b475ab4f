package diagnose

import (
	"math"
	"slices"
	"sort"

	"github.com/gpuscope/gpuscope/sampler/stat"
)

// orders keeps, across an Engine's evaluations, each GPU series of the
// window sorted, so a window that moved by one snapshot costs one insert
// and one delete instead of three selections over the whole window (the
// selections were a quarter of `record`'s CPU: docs/benchmarks.md, "Cost
// profiles of the one house"). The result is the same stats summarise
// gives, bit for bit: percentiles are the values a sort puts at the ranks.
type orders struct {
	series map[orderKey]*sortedSeries
	// c is the ctx the evaluation before used, handed to the next with
	// its slices (the GPUs', the jobs', the scratch of its walks), so a
	// window one second on does not allocate them again (they were most
	// of what newCtx allocated: docs/benchmarks.md, "Recording a day: the
	// diagnosis's context carried").
	c    *ctx
	cols columns // each GPU's samples of the window (column.go)
	// rows are the processes' figures of the window's slim hosts, aligned
	// with the window the next ctx is made of (slim.go); nil: none.
	rows []procRows
}

// ctx is the ctx of the evaluation before, cleared, its slices kept.
func (o *orders) ctx() *ctx {
	c := o.c
	if c == nil {
		c = &ctx{}
		o.c = c
	}
	*c = ctx{gpus: c.gpus[:0], jobs: c.jobs[:0], buf: c.buf[:0], buf2: c.buf2[:0], series: c.series, jobSeries: c.jobSeries}
	return c
}

type orderKey struct{ gpu, metric int }

// sortedSeries is one series as last seen, in window order and sorted.
type sortedSeries struct {
	times  []int64 // the snapshots' times (UnixNano), window order
	vals   []float64
	sorted []float64
}

// summarise is summarise(vals) for the series key, where times[i] is the
// time of the snapshot vals[i] came from. vals is left as given.
func (o *orders) summarise(key orderKey, times []int64, vals []float64) stats {
	n := len(vals)
	if n == 0 {
		return stats{}
	}
	sum, hi := 0.0, vals[0]
	for _, v := range vals {
		if math.IsNaN(v) { // no total order: the selection path decides as before
			return summarise(vals)
		}
		sum += v
		hi = max(hi, v)
	}
	if o.series == nil {
		o.series = map[orderKey]*sortedSeries{}
	}
	s := o.series[key]
	if s == nil {
		s = &sortedSeries{}
		o.series[key] = s
	}
	sorted := s.update(times, vals)
	return stats{n: n, mean: sum / float64(n), p5: sorted[stat.RankIndex(n, 5)], p50: sorted[stat.RankIndex(n, 50)], p95: sorted[stat.RankIndex(n, 95)], max: hi}
}

// update makes s hold times and vals and returns vals sorted: by dropping
// the values that left the front and inserting those that came at the end
// when the new window continues the old one, else by sorting afresh.
func (s *sortedSeries) update(times []int64, vals []float64) []float64 {
	if !s.slide(times, vals) {
		s.sorted = append(s.sorted[:0], vals...)
		slices.Sort(s.sorted)
	}
	s.times = append(s.times[:0], times...)
	s.vals = append(s.vals[:0], vals...)
	return s.sorted
}

// slide applies the move from the stored window to (times, vals) to the
// sorted values, reporting false when the new window does not continue the
// old (a jump, a scrub back, a gap in a series) and nothing was changed
// that a fresh sort will not replace.
func (s *sortedSeries) slide(times []int64, vals []float64) bool {
	if len(s.times) == 0 {
		return false
	}
	d := sort.Search(len(s.times), func(j int) bool { return s.times[j] >= times[0] })
	overlap := len(s.times) - d
	if d == len(s.times) || s.times[d] != times[0] || overlap > len(times) ||
		!slices.Equal(s.times[d:], times[:overlap]) || !sameBits(s.vals[d:], vals[:overlap]) {
		return false
	}
	for _, v := range s.vals[:d] {
		i := sort.SearchFloat64s(s.sorted, v)
		if i == len(s.sorted) || s.sorted[i] != v {
			return false
		}
		s.sorted = slices.Delete(s.sorted, i, i+1)
	}
	for _, v := range vals[overlap:] {
		s.sorted = slices.Insert(s.sorted, sort.SearchFloat64s(s.sorted, v), v)
	}
	return true
}

// sameBits compares values exactly (0 and -0 differ: a percentile must
// come out as the selection would have printed it).
func sameBits(a, b []float64) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
