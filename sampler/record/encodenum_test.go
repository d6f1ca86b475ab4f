package record

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// appendDecimal writes what strconv writes, on decimals of zero to four
// places near and far from the bounds, on neighbours of those doubles,
// and on doubles of random bits.
func TestDecimalAsStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	check := func(v float64) {
		t.Helper()
		for _, c := range []struct {
			fmt   byte
			below float64
		}{{'g', 1e6}, {'f', 1e12}} {
			got, ok := appendDecimal([]byte("x"), v, c.below)
			want := strconv.AppendFloat([]byte("x"), v, c.fmt, -1, 64)
			if ok && string(got) != string(want) || !ok && string(got) != "x" {
				t.Fatalf("%v ('%c'): got %q (%v), strconv %q", v, c.fmt, got, ok, want)
			}
		}
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 0.2 + 0.1, 0.3, 1e-3, 5e-4, 999999.9, 999999.999, 1e6, 1e6 + 0.5,
		1e12 - 0.001, 1e12, 123456789012.345, 1 << 53, math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, math.MaxFloat64} {
		check(v)
		check(-v)
	}
	for range 200000 {
		d := r.IntN(5)
		k := r.Int64N([]int64{10, 1e3, 1e6, 1e9, 1e15, 1e17}[r.IntN(6)])
		v := float64(k) / math.Pow10(d)
		if r.IntN(2) == 0 {
			v = -v
		}
		check(v)
		check(math.Nextafter(v, math.Inf(1)))
		check(math.Float64frombits(r.Uint64()))
	}
}

// appendWhole writes what strconv's shortest 'g' writes, on whole numbers
// of every length from 1e6 to 2^53 with and without trailing zeros, their
// neighbours and the bounds; it leaves the others.
func TestWholeAsStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	whole := 0
	check := func(v float64) {
		t.Helper()
		got, ok := appendWhole([]byte("x"), v)
		want := strconv.AppendFloat([]byte("x"), v, 'g', -1, 64)
		if ok && string(got) != string(want) || !ok && string(got) != "x" {
			t.Fatalf("%v: got %q (%v), strconv %q", v, got, ok, want)
		}
		if ok {
			whole++
		}
	}
	for _, v := range []float64{0, 1, 999999, 999999.5, 1e6, 1e6 + 0.5, 1e7, 1234567, 1<<53 - 1, 1 << 53, 1<<53 + 2, 1e16, 1e21,
		math.NaN(), math.Inf(1), math.Inf(-1), 8.589934592e+09, 7.4719232e+08} {
		check(v)
		check(-v)
	}
	for range 200000 {
		k := 1e6 + r.Int64N(1<<53-1e6)
		k -= k % []int64{1, 10, 1000, 1 << 20, 1e6, 1e9}[r.IntN(6)]
		v := float64(k)
		if r.IntN(2) == 0 {
			v = -v
		}
		check(v)
		check(math.Nextafter(v, math.Inf(1)))
		check(math.Nextafter(v, math.Inf(-1)))
	}
	if whole < 300000 {
		t.Fatalf("only %d whole numbers written", whole)
	}
}

// timeText's quick path writes what the checked round trip does, and
// leaves to it the times that do not read back the same.
func TestTimeTextAsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	zones := []*time.Location{time.UTC, time.Local, time.FixedZone("a", 5*3600+1800), time.FixedZone("b", -8*3600), time.FixedZone("c", 3601),
		time.FixedZone("d", 24*3600), time.FixedZone("e", -24*3600+60), time.FixedZone("f", 30*3600)}
	for range 20000 {
		year := []int{-1, 0, 1, 1970, 2026, 9999, 10000}[r.IntN(7)]
		at := time.Date(year, time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(2)*r.IntN(1e9), zones[r.IntN(len(zones))])
		if got, want := timeText(at), timeTextChecked(at); !bytes.Equal(got, want) {
			t.Fatalf("%v: %q, the round trip %q", at, got, want)
		}
	}
}
