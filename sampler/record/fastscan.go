package record

import (
	"math"
	"strconv"
	"unicode/utf8"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
)

// scanner reads the JSON of a line as the recorder writes it, for
// fastentry.go. It accepts a strict subset of JSON: anything else (an
// escaped string, an exponent in an integer, a null where a number is
// expected, a key it does not know or out of the writer's order) sets bad,
// and decodeEntry decodes the line again with the general decoder, so a
// line reads the same either way and only its speed depends on the path.
type scanner struct {
	b   []byte
	i   int
	bad bool
	// The host's processes and CPUs in the line before, to size this
	// line's at once.
	procHint, cpuHint int
	// lean: the host's details a report does not read are checked, not
	// kept, and its process records come back to spare once the reader's
	// caller is done with them; used are this line's (lean.go).
	lean        bool
	spare, used procMem
}

func (s *scanner) ws() {
	// The recorder writes no blanks: one test for the usual case (a tenth
	// of a worker's CPU went to the loop below).
	if s.i < len(s.b) && s.b[s.i] > ' ' {
		return
	}
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after blanks, 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

func (s *scanner) expect(c byte) bool {
	if s.peek() != c {
		s.bad = true
		return false
	}
	s.i++
	return true
}

// null consumes a null literal if one is next.
func (s *scanner) null() bool {
	if s.peek() == 'n' && s.lit("null") {
		return true
	}
	return false
}

func (s *scanner) lit(w string) bool {
	if len(s.b)-s.i < len(w) || string(s.b[s.i:s.i+len(w)]) != w {
		return false
	}
	s.i += len(w)
	return true
}

// more steps through the members of an object or the elements of an
// array whose opening bracket was read: n counts them, end is the closing
// bracket.
func (s *scanner) more(n *int, end byte) bool {
	if s.bad {
		return false
	}
	c := s.peek()
	switch {
	case c == end:
		s.i++
		return false
	case *n == 0:
	case c == ',':
		s.i++
	default:
		s.bad = true
		return false
	}
	*n++
	return true
}

// key reads a member's name and its colon. order holds the names of the
// object's fields in the order the writer writes them and *at the index of
// the last one read: a name is looked for after it only, so a repeated,
// unknown, reordered or differently cased name is refused (the general
// decoder then takes the line).
func (s *scanner) key(order []string, at *int) string {
	if s.peek() != '"' {
		s.bad = true
		return ""
	}
	// Compared where it lies: a name followed by its closing quote is
	// the whole key, as no name holds a quote or a backslash.
	b := s.b[s.i+1:]
	for j := *at + 1; j < len(order); j++ {
		if k := order[j]; len(b) > len(k) && b[len(k)] == '"' && b[0] == k[0] && string(b[:len(k)]) == k {
			*at = j
			s.i += len(k) + 2
			s.expect(':')
			return k
		}
	}
	s.bad = true
	return ""
}

// rawString returns the bytes between the quotes of a string without
// escapes or control characters, in valid UTF-8.
func (s *scanner) rawString() []byte {
	if !s.expect('"') {
		return nil
	}
	start, ascii := s.i, true
	for ; s.i < len(s.b); s.i++ {
		c := s.b[s.i]
		switch {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			if !ascii && !utf8.Valid(v) {
				s.bad = true
			}
			return v
		case c == '\\' || c < 0x20:
			s.bad = true
			return nil
		case c >= 0x80:
			ascii = false
		}
	}
	s.bad = true
	return nil
}

// str is not inlined: its ~30 call sites (static fields, read on few
// lines) each held a copy of the string conversion (docs/benchmarks.md,
// "Binary size and the glibc floor").
//
//go:noinline
func (s *scanner) str() string { return string(s.rawString()) }

func (s *scanner) boolean() bool {
	switch s.peek() {
	case 't':
		if s.lit("true") {
			return true
		}
	case 'f':
		if s.lit("false") {
			return false
		}
	}
	s.bad = true
	return false
}

// metric reads a number or null as sampler.Metric.UnmarshalJSON does.
func (s *scanner) metric() sampler.Metric {
	if s.null() {
		return sampler.NA
	}
	return sampler.Some(s.float())
}

// integer reads an integer literal within [lo, hi], in one pass as float
// does; a fraction or an exponent is refused, as the general decoder
// refuses it for an integer field.
func (s *scanner) integer(lo, hi int64) int64 {
	s.ws()
	b, start := s.b, s.i
	// 18 digits cannot overflow an int64: summed by intPart, where strconv
	// was a tenth of the reading's CPU (processes' PIDs and parents).
	i, neg, u, digits, ok := intPart(b, start)
	if !ok {
		s.bad = true
		return 0
	}
	v := int64(u)
	if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
		s.bad = true
		return 0
	}
	s.i = i
	if digits > 18 {
		var err error
		if v, err = strconv.ParseInt(string(b[start:i]), 10, 64); err != nil {
			s.bad = true
		}
	} else if neg {
		v = -v
	}
	if v < lo || v > hi {
		s.bad = true
	}
	return v
}

func (s *scanner) int() int { return int(s.integer(math.MinInt, math.MaxInt)) }

func (s *scanner) ints() []int { return s.intList(true) }

// intList reads a list of integers, kept or only checked (lean.go).
func (s *scanner) intList(keep bool) []int {
	if !s.expect('[') {
		return nil
	}
	var out []int
	if keep {
		out = []int{}
	}
	for n := 0; s.more(&n, ']'); {
		if v := s.int(); keep {
			out = append(out, v)
		}
	}
	return out
}

// value skips any JSON value and returns its text (checked strictly: an
// escape is read, not interpreted; nesting is bounded).
func (s *scanner) value(depth int) []byte {
	start := s.i
	switch c := s.peek(); {
	case depth > 512 || c == 0:
		s.bad = true
	case c == '{' || c == '[':
		start = s.i
		s.i++
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		for n := 0; s.more(&n, end); {
			if c == '{' {
				s.anyString()
				s.expect(':')
			}
			s.value(depth + 1)
		}
	case c == '"':
		start = s.i
		s.anyString()
	case c == 't' || c == 'f':
		start = s.i
		s.boolean()
	case c == 'n':
		start = s.i
		if !s.null() {
			s.bad = true
		}
	default:
		start = s.i
		s.number()
	}
	if s.bad {
		return nil
	}
	return s.b[start:s.i]
}

// anyString skips a string, escapes included.
func (s *scanner) anyString() {
	if !s.expect('"') {
		return
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			if !utf8.Valid(s.b[start:s.i]) {
				s.bad = true
			}
			s.i++
			return
		case c < 0x20:
			s.bad = true
			return
		case c == '\\':
			s.i++
			if s.i >= len(s.b) {
				s.bad = true
				return
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if s.i+4 >= len(s.b) {
					s.bad = true
					return
				}
				for _, h := range s.b[s.i+1 : s.i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						s.bad = true
						return
					}
				}
				s.i += 4
			default:
				s.bad = true
				return
			}
		}
	}
	s.bad = true
}

// other decodes a value the scanner has no reader for (rare fields: MIG
// devices, vGPUs, errors) with the general decoder, into a zero v as
// decoding the whole line would.
func (s *scanner) other(v any) {
	raw := s.value(0)
	if s.bad {
		return
	}
	if err := jsonv1.Unmarshal(raw, v); err != nil {
		s.bad = true
	}
}
