package diagnose

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/stat"
)

func TestSummariseMatchesSortedPercentiles(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 1; n < 300; n += 7 {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = math.Round(r.Float64() * 20) // many ties
		}
		sorted := slices.Clone(vals)
		slices.Sort(sorted)
		s := summarise(vals)
		if s.p5 != nearestRank(sorted, 5) || s.p50 != nearestRank(sorted, 50) || s.p95 != nearestRank(sorted, 95) || s.max != sorted[n-1] || s.n != n {
			t.Fatalf("n=%d: %+v vs sorted p5 %v p50 %v p95 %v", n, s, nearestRank(sorted, 5), nearestRank(sorted, 50), nearestRank(sorted, 95))
		}
	}
}

func TestPearson(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5}
	if r := pearson(a, []float64{2, 4, 6, 8, 10}); math.Abs(r-1) > 1e-9 {
		t.Fatalf("perfect correlation: %v", r)
	}
	if r := pearson(a, []float64{5, 4, 3, 2, 1}); math.Abs(r+1) > 1e-9 {
		t.Fatalf("anti-correlation: %v", r)
	}
	if r := pearson(a, []float64{3, 3, 3, 3, 3}); !math.IsNaN(r) {
		t.Fatalf("flat series: %v", r)
	}
}

// nearestRank is the p-th percentile of sorted vals, the reference summarise
// is checked against.
func nearestRank(sorted []float64, p float64) float64 {
	return sorted[stat.RankIndex(len(sorted), p)]
}
