package promsource

import (
	"encoding/binary"
	"math"
)

// packed is one scrape's values, each in as few bytes as it needs: most
// exporter readings are whole numbers (percent, °C, MHz, MiB, counters),
// which take a varint of 1 to 6 bytes instead of a float64's 8; any other
// value (fractions, NaN, ±Inf, -0) takes a marker byte and its 8 bytes.
// Read in order (each), as the ring reads a scrape.
type packed []byte

// maxWhole is the largest magnitude kept as a varint: float64 holds every
// whole number up to 2^53 exactly.
const maxWhole = 1 << 53

func appendValue(p packed, v float64) packed {
	if v == math.Trunc(v) && math.Abs(v) <= maxWhole && !(v == 0 && math.Signbit(v)) {
		i := int64(v)
		u := uint64(i<<1) ^ uint64(i>>63) // zigzag: small negatives stay small
		return binary.AppendUvarint(p, u<<1)
	}
	// A varint of an even number starts with an even byte: an odd one
	// marks the float.
	p = append(p, 1)
	return binary.LittleEndian.AppendUint64(p, math.Float64bits(v))
}

// each calls f with the values in order, and stops at a damaged end
// (which appendValue does not write).
func (p packed) each(f func(i int, v float64)) {
	for i := 0; len(p) > 0; i++ {
		if p[0]&1 == 1 {
			if len(p) < 9 {
				return
			}
			f(i, math.Float64frombits(binary.LittleEndian.Uint64(p[1:9])))
			p = p[9:]
			continue
		}
		u, n := binary.Uvarint(p)
		if n <= 0 {
			return
		}
		u >>= 1
		f(i, float64(int64(u>>1)^-int64(u&1)))
		p = p[n:]
	}
}
