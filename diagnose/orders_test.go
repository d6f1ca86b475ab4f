package diagnose

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrdersMatchSelection holds the sorted series to the selection they
// replace on windows that slide, jump, shrink, grow, repeat values and
// restart, as a replay scrubbing back and a GPU missing samples make them.
func TestOrdersMatchSelection(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var o orders
	key := orderKey{3, 1}
	from, to := int64(0), int64(0)
	value := func(ts int64) float64 { // a value per time, as a snapshot holds it
		r := rand.New(rand.NewPCG(uint64(ts), 7))
		if r.IntN(3) == 0 {
			return float64(r.IntN(3)) * 50 // many ties: 0, 50, 100
		}
		return r.Float64() * 100
	}
	slides := 0
	for step := 0; step < 5000; step++ {
		switch r := rng.IntN(20); {
		case r < 14: // the usual tick: one in, maybe one out
			to++
			if to-from > 120 {
				from++
			}
		case r < 16: // a jump ahead (replay seek)
			from, to = from+int64(rng.IntN(300)), to+int64(rng.IntN(300))+1
		case r < 17: // scrub back
			from, to = max(0, from-int64(rng.IntN(50))), max(1, to-int64(rng.IntN(50)))
		case r < 18: // the window shrinks from the front
			from = min(to-1, from+int64(rng.IntN(10)))
		default: // a burst of new samples
			to += int64(rng.IntN(5)) + 1
		}
		from = min(from, to-1)
		var times []int64
		var vals []float64
		for ts := from; ts < to; ts++ {
			if ts%17 == 5 { // a sample without the metric
				continue
			}
			times = append(times, ts)
			vals = append(vals, value(ts))
		}
		if len(vals) == 0 {
			continue
		}
		got := o.summarise(key, times, vals)
		want := summarise(slices.Clone(vals))
		if got != want {
			t.Fatalf("step %d, window [%d,%d): sorted series %+v, selection %+v", step, from, to, got, want)
		}
		if s := o.series[key]; len(s.sorted) != len(vals) {
			t.Fatalf("step %d: %d sorted values for %d in the window", step, len(s.sorted), len(vals))
		}
		slides++
	}
	if slides < 4000 {
		t.Fatalf("only %d windows compared", slides)
	}
}

// TestOrdersLeaveValuesAlone: the rules read the series after summarising.
func TestOrdersLeaveValuesAlone(t *testing.T) {
	var o orders
	vals := []float64{5, 1, 4, 2, 3}
	o.summarise(orderKey{}, []int64{1, 2, 3, 4, 5}, vals)
	if !slices.Equal(vals, []float64{5, 1, 4, 2, 3}) {
		t.Fatalf("values reordered: %v", vals)
	}
}
