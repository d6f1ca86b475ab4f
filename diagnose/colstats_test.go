package diagnose

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestColumnStatsMatchSummarise holds a column's statistics, slid one
// window after another, to summarise over the same values, bit for bit,
// and its predicates' counts to fracFlag's walk:
// signed zeros at the top (the max the sort cannot tell apart), infinities
// whose sum is NaN, and a NaN, which sends the caller to summarise. The
// percentiles are compared as numbers: which zero a rank lands on was
// never the same in a sort and a selection, and no text tells them apart.
func TestColumnStatsMatchSummarise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := []float64{0, math.Copysign(0, -1), -1, 7.25, math.Inf(1), math.Inf(-1)}
	zeros := false // a stretch of zeros of both signs and -1: max is a zero
	sample := func() gpuSample {
		x := gpuSample{has: uint8(rng.IntN(64)) | 1, flags: uint16(rng.IntN(1 << 14))}
		for k := range x.vals {
			switch r := rng.IntN(40); {
			case zeros:
				x.vals[k] = pick[rng.IntN(3)]
			case r < len(pick):
				x.vals[k] = pick[r]
			case r == 39 && rng.IntN(8) == 0:
				x.vals[k] = math.NaN()
			default:
				x.vals[k] = float64(rng.IntN(5)) - rng.Float64()
			}
		}
		if rng.IntN(20) == 0 {
			x.has, x.flags = sampleLost, 0
		}
		return x
	}
	col := &column{}
	nans, compared := 0, 0
	for step := 0; step < 3000; step++ {
		shift := 0
		if len(col.s) >= 30 {
			shift = 1 + rng.IntN(2)
		}
		col.slid(shift)
		col.s = append(col.s[:0], col.s[shift:]...)
		col.kept, col.summed = len(col.s), false
		for range 1 + rng.IntN(2) {
			col.s = append(col.s, sample())
		}
		zeros = step/100%2 == 1
		from := min(rng.IntN(4), len(col.s)-1)
		got, ok := col.stats(from)
		for j := range flagPairs {
			f := uint16(1) << (2 * j)
			known, hits, counted := col.counted(from, f)
			if counted != ok {
				t.Fatalf("step %d: counts kept %v, stats ok %v", step, counted, ok)
			}
			if wk, wh := walkFlag(col.s[from:], f); counted && (known != wk || hits != wh) {
				t.Fatalf("step %d, predicate %d: counts %d/%d kept, %d/%d walked", step, j, hits, known, wh, wk)
			}
		}
		for k := range col.vals {
			var vals []float64
			hasNaN := false
			for _, x := range col.s[from:] {
				if x.has&sampleLost == 0 && x.has&(1<<k) != 0 {
					vals = append(vals, x.vals[k])
					hasNaN = hasNaN || math.IsNaN(x.vals[k])
				}
			}
			if hasNaN {
				if ok {
					t.Fatalf("step %d: series %d holds a NaN, stats said ok", step, k)
				}
				nans++
				continue
			}
			if !ok {
				continue
			}
			want := summarise(vals)
			g := got[k]
			if g.n != want.n || !same(g.mean, want.mean) || !same(g.max, want.max) || g.p5 != want.p5 || g.p50 != want.p50 || g.p95 != want.p95 {
				t.Fatalf("step %d, series %d: stats %+v, summarise %+v", step, k, g, want)
			}
			compared++
		}
	}
	if nans == 0 || compared < 5000 {
		t.Fatalf("%d series compared, %d with a NaN: the test no longer reaches its cases", compared, nans)
	}
}

// same: the same bits, or both NaN.
func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}
