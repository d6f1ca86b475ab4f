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

// float reads a JSON number in one pass: the grammar checked and the
// digits summed together, where checking them first and reading them again
// (exactFloat) was a fifth of a pipeline worker's CPU on a day's lines
// (docs/benchmarks.md, "Recordings: the scanner's own cost"). The mantissa
// is used when it and its power of ten are exact in a float64; otherwise
// strconv reads the text, so the value is the correctly rounded one either
// way.
func (s *scanner) float() float64 {
	s.ws()
	b, start := s.b, s.i
	i, neg, mant, digits, ok := intPart(b, start)
	if !ok {
		s.bad = true
		return 0
	}
	exp := 0
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			s.bad = true
			return 0
		}
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			mant = mant*10 + uint64(b[i]-'0')
			digits++
			exp--
		}
	}
	exact := true
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		sign := 1
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			if b[i] == '-' {
				sign = -1
			}
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			s.bad = true
			return 0
		}
		e := 0
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			if e < 1000 {
				e = e*10 + int(b[i]-'0')
			} else {
				exact = false
			}
		}
		exp += sign * e
	}
	s.i = i
	if exact && digits <= 19 && mant < 1<<53 {
		f := float64(mant)
		if neg {
			f = -f
		}
		switch {
		case exp == 0:
			return f
		case exp > 0 && exp < len(pow10):
			return f * pow10[exp]
		case exp < 0 && -exp < len(pow10):
			return f / pow10[-exp]
		}
	}
	v, err := strconv.ParseFloat(string(b[start:i]), 64)
	if err != nil || math.IsInf(v, 0) {
		s.bad = true
	}
	return v
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// intPart reads the sign and integer part of a JSON number at b[i:]: '0',
// or a non-zero digit and the digits after it, summed (wrapping past 19
// digits: the callers read those from the text). ok is false where no
// integer part starts; j is where it ends.
func intPart(b []byte, i int) (j int, neg bool, v uint64, digits int, ok bool) {
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		return i + 1, neg, 0, 0, true
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			v = v*10 + uint64(b[i]-'0')
			digits++
		}
		return i, neg, v, digits, true
	}
	return i, neg, 0, 0, false
}
