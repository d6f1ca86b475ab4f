package record

import (
	"math"
	"strconv"
)

// Lean says that from now on the caller reads, of each line's host part,
// only that it is there, its processes' identities and parents and their
// static fields: the per-CPU figures and each process's state, CPU, RSS
// and children are checked as JSON but not kept (Host.CPUs nil, those
// fields zero). A report whose findings come from the recording needs no
// more (diagnose/summary.Build), and those values were a fifth of its
// reading's CPU and a third of its allocations (docs/benchmarks.md,
// "Recordings: the host read as far as a report needs it"). Lines already
// decoded stay whole; the statics remembered are the same either way, and
// a line that does not read so is decoded in full as before. Safe to call
// while Next runs on another goroutine's behalf.
func (r *Reader) Lean() { r.lean.Store(true) }

// skipFloat checks a JSON number as float does, without its value: the
// grammar, and an overflow where the text could hold one (an exponent of
// three digits or more, or a long mantissa), which is rare.
func (s *scanner) skipFloat() {
	t, _ := s.number()
	if !s.bad && (len(t) > 300 || bigExponent(t)) {
		if v, err := strconv.ParseFloat(string(t), 64); err != nil || math.IsInf(v, 0) {
			s.bad = true
		}
	}
}

// bigExponent: t (a number the grammar accepted) ends in an exponent of
// three digits or more.
func bigExponent(t []byte) bool {
	i := len(t)
	for i > 0 && t[i-1] >= '0' && t[i-1] <= '9' {
		i--
	}
	digits := len(t) - i
	if i > 0 && (t[i-1] == '+' || t[i-1] == '-') {
		i--
	}
	return digits >= 3 && i > 0 && (t[i-1] == 'e' || t[i-1] == 'E')
}

// skipMetric is metric without its value.
func (s *scanner) skipMetric() {
	if !s.null() {
		s.skipFloat()
	}
}

// skipInts is ints without the slice.
func (s *scanner) skipInts() {
	if !s.expect('[') {
		return
	}
	for n := 0; s.more(&n, ']'); {
		s.int()
	}
}
