package timeline

import (
	"math"
	"sort"

	"github.com/gpuscope/gpuscope/sampler/stat"
)

// dist is a distribution kept in bounded memory for its percentiles: each
// distinct value counted exactly while there are at most distExact of them
// (every real trace of sampler/trace/testdata), then in buckets of relative
// width 2^-distBits, each read as its midpoint: a percentile within 0.2 %
// of the exact one, in at most a few thousand buckets for the µs to seconds
// of kernel times.
type dist struct {
	n      int
	exact  map[float64]int
	coarse map[uint64]int
}

const (
	distExact = 1 << 16
	distBits  = 8
	distShift = 52 - distBits
)

func (d *dist) add(v float64) {
	d.n++
	if d.coarse == nil {
		if d.exact == nil {
			d.exact = map[float64]int{}
		}
		if d.exact[v]++; len(d.exact) <= distExact {
			return
		}
		d.coarse = map[uint64]int{}
		for x, c := range d.exact {
			d.coarse[bucket(x)] += c
		}
		d.exact = nil
		return
	}
	d.coarse[bucket(v)]++
}

func bucket(v float64) uint64 { return math.Float64bits(v) >> distShift }

// mid is the bucket's middle value.
func mid(k uint64) float64 { return math.Float64frombits(k<<distShift | 1<<(distShift-1)) }

// Approximate says the values are kept in buckets, no longer exactly.
func (d *dist) Approximate() bool { return d.coarse != nil }

// percentile is the p-th percentile by stat's nearest rank, as
// stat.Percentile of the list of every value; NaN when empty.
func (d *dist) percentile(p float64) float64 {
	if d.n == 0 {
		return math.NaN()
	}
	type vc struct {
		v float64
		c int
	}
	var vs []vc
	if d.coarse == nil {
		for v, c := range d.exact {
			vs = append(vs, vc{v, c})
		}
	} else {
		for k, c := range d.coarse {
			vs = append(vs, vc{mid(k), c})
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].v < vs[j].v }) // sort's one copy, not a generic one (docs/benchmarks.md, binary size)
	k := stat.RankIndex(d.n, p)
	for _, x := range vs {
		if k < x.c {
			return x.v
		}
		k -= x.c
	}
	return vs[len(vs)-1].v
}
