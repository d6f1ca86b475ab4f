package diagnose

import (
	"math"
	"slices"
	"sort"

	"github.com/gpuscope/gpuscope/sampler/stat"
)

// sorted is what a column keeps of summariseGPU's series between an
// Engine's evaluations: each metric's values of s[from:], sorted, so the
// next window, one snapshot on, deletes the values that left and inserts
// those that came, without gathering the series again or checking that it
// continues (the column's keys did: column.go). The statistics are the
// ones summarise gives, bit for bit, as orders.go's.
type sorted struct {
	vals [6][]float64
	// order are the same values in window order, for the sums.
	order [6][]float64
	from  int  // the position they start at, in this window (negative: in left)
	ok    bool // vals hold the series of the window before
	// summed: stats ran since the column was last read; if not, vals
	// are older than the window before.
	summed bool
	// left are the samples that left the window at the slide, from the
	// series' start: their values are deleted.
	left []gpuSample
	// counts are fracFlag's over s[from:], kept as the values are: for
	// each predicate (flag*), the samples that judge it and those where
	// it holds.
	counts [flagPairs][2]int32
}

// slid moves the series' start by the shift of the window, keeping the
// samples that leave it.
func (col *column) slid(shift int) {
	col.left = col.left[:0]
	if !col.ok || !col.summed {
		col.ok = false
		return
	}
	if col.from < shift {
		col.left = append(col.left, col.s[max(col.from, 0):shift]...)
	}
	col.from -= shift
}

// stats is summarise of each series of s[from:]; false where a series
// holds a NaN, which has no place in a sorted list: the caller then
// summarises by selection, as orders.summarise does. The sums are added
// over each series kept in window order beside its sorted values, in
// order as summarise adds them (the same bits): walking the window's
// samples for them was most of stats' time (docs/benchmarks.md,
// "Recording a day: the diagnosis's context carried"). The largest value
// is the sorted series' last; a NaN is looked for only where a sum came
// out NaN (a NaN value makes it one).
func (col *column) stats(from int) ([6]stats, bool) {
	if !col.ok || from < col.from || from > col.kept || !col.slide(from) {
		col.sortAfresh(from)
	}
	col.from, col.ok, col.summed = from, true, true
	var out [6]stats
	sums := col.sums()
	for k := range out {
		vals := col.order[k]
		n := len(vals)
		if n == 0 {
			continue
		}
		sum := sums[k]
		if math.IsNaN(sum) && slices.ContainsFunc(vals, math.IsNaN) {
			col.ok = false
			return [6]stats{}, false
		}
		v := col.vals[k]
		out[k] = stats{n: n, mean: sum / float64(n), p5: v[stat.RankIndex(n, 5)], p50: v[stat.RankIndex(n, 50)], p95: v[stat.RankIndex(n, 95)], max: col.maxOf(from, k, v)}
	}
	return out, true
}

// sums adds each series in order. Where all six are as long, as they
// are where a GPU reports every field, they are added side by side: each
// sum is a chain of dependent adds, and six chains at once keep the
// adder busy where one waits on each add.
func (col *column) sums() [6]float64 {
	var sum [6]float64
	o := &col.order
	n := len(o[0])
	if len(o[1]) != n || len(o[2]) != n || len(o[3]) != n || len(o[4]) != n || len(o[5]) != n {
		for k := range o {
			for _, v := range o[k] {
				sum[k] += v
			}
		}
		return sum
	}
	a, b, c, d, e, f := o[0][:n], o[1][:n], o[2][:n], o[3][:n], o[4][:n], o[5][:n]
	var s0, s1, s2, s3, s4, s5 float64 // registers: an array's elements stay in memory
	for i := range n {
		s0 += a[i]
		s1 += b[i]
		s2 += c[i]
		s3 += d[i]
		s4 += e[i]
		s5 += f[i]
	}
	return [6]float64{s0, s1, s2, s3, s4, s5}
}

// maxOf is what the builtin max gives over series k of s[from:], v its
// values sorted, without NaN: the last, save at a top of zeros, where a +0
// wins over -0 (max(-0, 0) is 0) and the sorted values cannot say which
// zeros the window holds (a slide deletes a -0 by finding an equal 0):
// there the window's own values say.
func (col *column) maxOf(from, k int, v []float64) float64 {
	top := v[len(v)-1]
	if top != 0 {
		return top
	}
	for i := from; i < len(col.s); i++ {
		x := &col.s[i]
		if x.has&sampleLost == 0 && x.has&(1<<k) != 0 && x.vals[k] == 0 && !math.Signbit(x.vals[k]) {
			return x.vals[k]
		}
	}
	return math.Copysign(0, -1)
}

// at is the sample at window position p, a negative p among those that left.
func (col *column) at(p int) *gpuSample {
	if p < 0 {
		return &col.left[p-col.from]
	}
	return &col.s[p]
}

// slide deletes the values of positions [col.from, from) and inserts
// those of the new samples; false if a value to delete is not there.
func (col *column) slide(from int) bool {
	for p := col.from; p < from; p++ {
		x := col.at(p)
		col.count(x.flags, -1)
		if x.has&sampleLost != 0 {
			continue
		}
		for k := range col.vals {
			if x.has&(1<<k) == 0 {
				continue
			}
			v := x.vals[k]
			s, o := col.vals[k], col.order[k]
			i := sort.SearchFloat64s(s, v)
			if i == len(s) || s[i] != v || len(o) == 0 || math.Float64bits(o[0]) != math.Float64bits(v) {
				return false
			}
			col.vals[k] = s[:i+copy(s[i:], s[i+1:])]
			col.order[k] = o[1:]
		}
	}
	for p := max(from, col.kept); p < len(col.s); p++ {
		x := &col.s[p]
		col.count(x.flags, 1)
		if x.has&sampleLost != 0 {
			continue
		}
		for k := range col.vals {
			if x.has&(1<<k) != 0 {
				v, s := x.vals[k], col.vals[k]
				i := sort.SearchFloat64s(s, v)
				s = append(s, 0)
				copy(s[i+1:], s[i:])
				s[i] = v
				col.vals[k] = s
				col.order[k] = append(col.order[k], v)
			}
		}
	}
	return true
}

// sortAfresh sorts each series of s[from:].
func (col *column) sortAfresh(from int) {
	for k := range col.vals {
		col.order[k] = col.order[k][:0]
	}
	col.counts = [flagPairs][2]int32{}
	for i := from; i < len(col.s); i++ {
		x := &col.s[i]
		col.count(x.flags, 1)
		if x.has&sampleLost != 0 {
			continue
		}
		for k := range col.order {
			if x.has&(1<<k) != 0 {
				col.order[k] = append(col.order[k], x.vals[k])
			}
		}
	}
	for k := range col.vals {
		col.vals[k] = append(col.vals[k][:0], col.order[k]...)
		slices.Sort(col.vals[k])
	}
}

// count adds d to the counts of the predicates flags judges, and of
// those it finds holding, as fracFlag counts them.
func (col *column) count(flags uint16, d int32) {
	for j := range col.counts {
		if flags&(1<<(2*j)) != 0 {
			col.counts[j][0] += d
			if flags&(2<<(2*j)) != 0 {
				col.counts[j][1] += d
			}
		}
	}
}

// counted is fracFlag's known and hit counts of predicate f over s[from:],
// where the sorted series are those of from: false if not.
func (col *column) counted(from int, f uint16) (known, hits int, ok bool) {
	if !col.ok || !col.summed || col.from != from {
		return 0, 0, false
	}
	for j := range col.counts {
		if f == 1<<(2*j) {
			return int(col.counts[j][0]), int(col.counts[j][1]), true
		}
	}
	return 0, 0, false
}
