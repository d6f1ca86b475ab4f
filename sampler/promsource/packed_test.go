package promsource

import (
	"math"
	"testing"
)

// Every value comes back bit for bit, whole numbers in fewer bytes.
func TestPackedRoundTrip(t *testing.T) {
	vals := []float64{0, 1, -1, 77, 550000, 1.5e10, 69.941, math.NaN(), math.Inf(1), math.Inf(-1),
		math.Copysign(0, -1), maxWhole, -maxWhole, maxWhole * 2, 1e300, -0.25, math.SmallestNonzeroFloat64}
	var p packed
	for _, v := range vals {
		p = appendValue(p, v)
	}
	n := 0
	p.each(func(i int, v float64) {
		if math.Float64bits(v) != math.Float64bits(vals[i]) {
			t.Errorf("value %d: %v back as %v", i, vals[i], v)
		}
		n++
	})
	if n != len(vals) {
		t.Errorf("%d values back of %d", n, len(vals))
	}
	if small := appendValue(nil, 77); len(small) != 2 {
		t.Errorf("77 took %d bytes, want 2", len(small))
	}
}
