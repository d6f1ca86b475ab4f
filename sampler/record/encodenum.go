package record

import (
	"math"
	"strconv"
)

// appendDecimal appends v as strconv's shortest 'f' writes it, and 'g'
// below 1e6, where v is the double nearest a decimal of at most three
// places and fifteen digits, as most readings are (whole percents,
// tenths, watts to the milliwatt); false, and nothing appended, for
// others. strconv's general shortest search was ~7 % of recording a day
// (docs/benchmarks.md, "Recording a day: the writer's text").
// Why it is the same text: k/10^d, a correctly rounded division, is the
// double nearest that decimal; two decimals of at most fifteen digits are
// never nearest the same double, so no other decimal as short reads back
// as v, and strconv writes that one. TestDecimalAsStrconv holds it.
func appendDecimal(b []byte, v float64, below float64) ([]byte, bool) {
	if v == 0 && !math.Signbit(v) {
		return append(b, '0'), true
	}
	if !(math.Abs(v) < below) || v == 0 { // NaN fails the first; -0 is strconv's
		return b, false
	}
	scale, p := 1.0, int64(1)
	for range 4 {
		if k := math.Round(v * scale); k/scale == v {
			n := int64(k)
			if n < 0 {
				b, n = append(b, '-'), -n
			}
			b = strconv.AppendInt(b, n/p, 10)
			if f := n % p; f != 0 {
				b = append(b, '.')
				for p /= 10; f != 0; p /= 10 {
					b, f = append(b, byte('0'+f/p)), f%p
				}
			}
			return b, true
		}
		scale, p = scale*10, p*10
	}
	return b, false
}

// appendWhole appends v as strconv's shortest 'g' writes it where v is a
// whole number of magnitude 1e6 to 2^53 (bytes: a process's RSS, swap),
// which 'g' writes with an exponent; false, and nothing appended, for
// others. Below 2^53 every whole number is a double of its own, so no
// shorter decimal reads back as v: the shortest is v's digits without
// their trailing zeros. TestWholeAsStrconv holds it.
func appendWhole(b []byte, v float64) ([]byte, bool) {
	a := math.Abs(v)
	if !(a >= 1e6 && a < 1<<53) || a != math.Trunc(a) {
		return b, false
	}
	if v < 0 {
		b = append(b, '-')
	}
	var d [20]byte
	ds := strconv.AppendUint(d[:0], uint64(a), 10)
	exp := len(ds) - 1
	for ds[len(ds)-1] == '0' {
		ds = ds[:len(ds)-1]
	}
	b = append(b, ds[0])
	if len(ds) > 1 {
		b = append(append(b, '.'), ds[1:]...)
	}
	b = append(b, 'e', '+')
	if exp < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(exp), 10), true
}
