package record

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"time"
	"unsafe"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
)

// The values lineEncoder (encode.go) writes itself, and the jsonv1
// encoder it hands the others to.

// any appends v as the jsonv1 encoder writes it.
func (e *lineEncoder) any(v any) {
	if e.err != nil {
		return
	}
	if e.fe == nil {
		e.fe = jsonv1.NewEncoder(&e.fb)
		e.fe.SetEscapeHTML(false)
	}
	e.fb.Reset()
	if err := e.fe.Encode(v); err != nil {
		e.err, e.fe = err, nil // a fresh encoder for the next line
		return
	}
	e.b = append(e.b, bytes.TrimSuffix(e.fb.Bytes(), []byte{'\n'})...)
}

// procs writes the map in jsonv1's order: by the keys' text, so "10"
// comes before "9"; a process listed in e.same without its statics.
func (e *lineEncoder) procs(m map[int]*sampler.Proc, p plan) {
	if !e.sameKeys(m) {
		e.keys = e.keys[:0]
		for k := range m {
			e.keys = append(e.keys, k)
		}
		slices.SortFunc(e.keys, func(a, b int) int {
			var x, y [20]byte
			return bytes.Compare(strconv.AppendInt(x[:0], int64(a), 10), strconv.AppendInt(y[:0], int64(b), 10))
		})
	}
	e.b = append(e.b, '{')
	for i, k := range e.keys {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = append(strconv.AppendInt(append(e.b, '"'), int64(k), 10), `":`...)
		if pr := m[k]; pr == nil {
			e.b = append(e.b, "null"...)
		} else {
			e.object(unsafe.Pointer(pr), p, e.procSkip(k))
		}
	}
	e.b = append(e.b, '}')
}

// sameKeys: m holds exactly the keys of the line before (e.keys has no
// repeats, so as many of them, each found, are all of m's).
func (e *lineEncoder) sameKeys(m map[int]*sampler.Proc) bool {
	if len(m) != len(e.keys) {
		return false
	}
	for _, k := range e.keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// procSkip: the skip bits of process pid, skipStatic where it is listed.
func (e *lineEncoder) procSkip(pid int) uint8 {
	if _, ok := slices.BinarySearch(e.same, pid); ok {
		return skipStatic
	}
	return 0
}

// plain: printable ASCII but a quote or a backslash, which JSON writes as
// it is.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// str appends s quoted; other text is escaped by the jsonv1 encoder.
func (e *lineEncoder) str(s string) {
	if !plain(s) {
		e.any(s)
		return
	}
	e.b = append(append(append(e.b, '"'), s...), '"')
}

// clock: ClockEvents.MarshalJSON's list of names, null where unknown;
// jsonv1's where a name is not plain (the names are the package's own).
func (e *lineEncoder) clock(c *sampler.ClockEvents) {
	if !c.OK {
		e.b = append(e.b, "null"...)
		return
	}
	names := c.Names()
	for _, n := range names {
		if !plain(n) {
			e.any(*c)
			return
		}
	}
	e.b = append(e.b, '[')
	for i, n := range names {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = append(append(append(e.b, '"'), n...), '"')
	}
	e.b = append(e.b, ']')
}

// float: a plain float64 as jsonv1 writes it where it writes it as 'f';
// exponents and non-finite numbers (an error) are its own.
func (e *lineEncoder) float(v float64) {
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) || math.IsNaN(v) || math.IsInf(v, 0) {
		e.any(v)
		return
	}
	var ok bool
	if e.b, ok = appendDecimal(e.b, v, 1e12); !ok {
		e.b = strconv.AppendFloat(e.b, v, 'f', -1, 64)
	}
}

// time: RFC 3339 with nanoseconds, as time.Time's MarshalJSON; years
// outside 0–9999 and offsets in seconds are jsonv1's to refuse or write.
func (e *lineEncoder) time(t *time.Time) {
	if _, off := t.Zone(); t.Year() < 0 || t.Year() > 9999 || off%60 != 0 {
		e.any(*t)
		return
	}
	e.b = append(t.AppendFormat(append(e.b, '"'), time.RFC3339Nano), '"')
}
