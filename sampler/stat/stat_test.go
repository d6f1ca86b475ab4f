package stat

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPercentileIsNearestRankOfTheSort: selection gives what a sort and
// the nearest-rank index give, ties included.
func TestPercentileIsNearestRankOfTheSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 200; n += 3 {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = math.Round(r.Float64() * 10) // many ties
		}
		sorted := slices.Sorted(slices.Values(vals))
		for _, p := range []float64{1, 5, 10, 50, 90, 95, 100} {
			if got, want := Percentile(slices.Clone(vals), p), sorted[RankIndex(n, p)]; got != want {
				t.Fatalf("n=%d p%v: %v, want %v", n, p, got, want)
			}
		}
	}
}

func TestRankIndexAndMedian(t *testing.T) {
	// Nearest rank: p50 of an even count is the lower middle value, not
	// the mean of the two middle ones.
	if got := Percentile([]float64{4, 1, 3, 2}, 50); got != 2 {
		t.Errorf("p50 of 1..4 = %v, want 2", got)
	}
	if got := Percentile([]float64{5, 1, 3}, 50); got != 3 {
		t.Errorf("p50 of 1,3,5 = %v, want 3", got)
	}
	if got := RankIndex(20, 5); got != 0 {
		t.Errorf("p5 of 20 values at index %d, want 0", got)
	}
	if got := RankIndex(20, 95); got != 18 {
		t.Errorf("p95 of 20 values at index %d, want 18", got)
	}
	if !math.IsNaN(Percentile(nil, 50)) {
		t.Error("percentile of nothing is not NaN")
	}
}
