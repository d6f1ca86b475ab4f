package record

import (
	"math"
	"strconv"
)

// Numbers, for the scanner of fastscan.go.

// number returns a JSON number's text, checked against the grammar (which
// strconv's is wider than), and whether it is an integer.
func (s *scanner) number() ([]byte, bool) {
	s.ws()
	start, b := s.i, s.b
	i := s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		s.bad = true
		return nil, false
	}
	integer := true
	if i < len(b) && b[i] == '.' {
		integer = false
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			s.bad = true
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			s.bad = true
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	s.i = i
	return b[start:i], integer
}

func (s *scanner) float() float64 {
	t, _ := s.number()
	if s.bad {
		return 0
	}
	if v, ok := exactFloat(t); ok {
		return v
	}
	v, err := strconv.ParseFloat(string(t), 64)
	if err != nil || math.IsInf(v, 0) {
		s.bad = true
	}
	return v
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactFloat reads a JSON number whose digits fit a float64's mantissa
// and whose power of ten is exact in one too (most readings: 596.35,
// 8.838447104e+10): one multiplication or division rounds it correctly,
// as strconv.ParseFloat's own fast path does, without its other cases.
func exactFloat(t []byte) (float64, bool) {
	neg := len(t) > 0 && t[0] == '-'
	if neg {
		t = t[1:]
	}
	var mant uint64
	digits, exp, i := 0, 0, 0
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		mant = mant*10 + uint64(t[i]-'0')
		digits++
	}
	if i < len(t) && t[i] == '.' {
		for i++; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			mant = mant*10 + uint64(t[i]-'0')
			digits++
			exp--
		}
	}
	if digits > 19 || mant >= 1<<53 {
		return 0, false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		sign := 1
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			if t[i] == '-' {
				sign = -1
			}
			i++
		}
		e := 0
		for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			if e = e*10 + int(t[i]-'0'); e > 1000 {
				return 0, false
			}
		}
		exp += sign * e
	}
	f := float64(mant)
	if neg {
		f = -f
	}
	switch {
	case exp == 0:
		return f, true
	case exp > 0 && exp < len(pow10):
		return f * pow10[exp], true
	case exp < 0 && -exp < len(pow10):
		return f / pow10[-exp], true
	}
	return 0, false
}
