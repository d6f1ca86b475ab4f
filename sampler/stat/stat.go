// Package stat holds gpuscope's one percentile definition (nearest rank)
// and the selection that computes it without a full sort. The rules' window
// statistics, their medians, the report's histograms and the simulator's
// tests all use it, so a "p50" means the same everywhere.
package stat

import "math"

// Percentile is the p-th percentile (0 < p <= 100) of vals by nearest
// rank, NaN when vals is empty. It reorders vals (selection, not a sort).
func Percentile(vals []float64, p float64) float64 {
	if len(vals) == 0 {
		return math.NaN()
	}
	k := RankIndex(len(vals), p)
	Select(vals, k)
	return vals[k]
}

// RankIndex is the 0-based index, among n sorted values, of the p-th
// percentile by the nearest-rank method: the one percentile definition of
// gpuscope (the rules' window statistics, medians and report's histograms).
func RankIndex(n int, p float64) int {
	return min(max(int(math.Ceil(p/100*float64(n)))-1, 0), n-1)
}

// Select reorders v so that v[k] holds the value a sort would put there,
// with smaller-or-equal values before it and larger-or-equal after (Hoare's
// quickselect, median-of-three pivot).
func Select(v []float64, k int) {
	lo, hi := 0, len(v)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[hi] < v[mid] {
			v[hi], v[mid] = v[mid], v[hi]
		}
		pivot := v[mid]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for pivot < v[j] {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
