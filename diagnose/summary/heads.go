package summary

import (
	"strconv"

	"github.com/gpuscope/gpuscope/diagnose"
)

// readHeads reads the heads of a list of findings as the recorder writes
// them (names exactly as diagnose writes them, plain strings and integers)
// without reflection, into out's elements, zeroed; false where the general
// decoder must read the list (anything else: a name in another case,
// escapes, null, a number with a fraction), so a list reads the same
// either way (TestReadHeadsAgrees, FuzzReadHeads). Decoding the written
// heads with jsonv1 was the main goroutine's largest cost after the
// findings' text (docs/benchmarks.md, "Recordings: the findings handed
// on"). list is valid JSON (a recording line's findings, read by record).
func readHeads(list []byte, out []findingHead) ([]findingHead, bool) {
	h := headScan{b: list}
	out = out[:0]
	if !h.expect('[') {
		return out, false
	}
	if h.peek() == ']' {
		h.i++
		return out, h.end()
	}
	for {
		out = append(out, findingHead{})
		if !h.head(&out[len(out)-1]) {
			return out, false
		}
		switch h.peek() {
		case ',':
			h.i++
		case ']':
			h.i++
			return out, h.end()
		default:
			return out, false
		}
	}
}

type headScan struct {
	b []byte
	i int
}

func (h *headScan) ws() {
	for h.i < len(h.b) && (h.b[h.i] == ' ' || h.b[h.i] == '\t' || h.b[h.i] == '\n' || h.b[h.i] == '\r') {
		h.i++
	}
}

func (h *headScan) peek() byte {
	h.ws()
	if h.i < len(h.b) {
		return h.b[h.i]
	}
	return 0
}

func (h *headScan) expect(c byte) bool {
	if h.peek() != c {
		return false
	}
	h.i++
	return true
}

func (h *headScan) end() bool { h.ws(); return h.i == len(h.b) }

// plain reads a string without escapes or bytes outside ASCII.
func (h *headScan) plain() (string, bool) {
	if !h.expect('"') {
		return "", false
	}
	start := h.i
	for ; h.i < len(h.b); h.i++ {
		switch c := h.b[h.i]; {
		case c == '"':
			h.i++
			return string(h.b[start : h.i-1]), true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", false
		}
	}
	return "", false
}

// integer reads an integer as JSON writes one, within int's range.
func (h *headScan) integer() (int, bool) {
	h.ws()
	start := h.i
	if h.i < len(h.b) && h.b[h.i] == '-' {
		h.i++
	}
	digits := h.i
	for h.i < len(h.b) && h.b[h.i] >= '0' && h.b[h.i] <= '9' {
		h.i++
	}
	if h.i == digits || h.b[digits] == '0' && h.i-digits > 1 {
		return 0, false
	}
	if h.i < len(h.b) && (h.b[h.i] == '.' || h.b[h.i] == 'e' || h.b[h.i] == 'E') {
		return 0, false
	}
	n, err := strconv.Atoi(string(h.b[start:h.i]))
	return n, err == nil
}

// head reads one finding, skipping the members it does not need.
func (h *headScan) head(f *findingHead) bool {
	if !h.expect('{') {
		return false
	}
	if h.peek() == '}' {
		h.i++
		return true
	}
	for {
		k, ok := h.plain()
		if !ok || !h.expect(':') {
			return false
		}
		switch k {
		case "rule":
			if f.Rule, ok = h.plain(); !ok {
				return false
			}
		case "severity":
			s, ok := h.plain()
			if !ok {
				return false
			}
			if f.Severity, ok = severityNamed(s); !ok {
				return false
			}
		case "gpu":
			if f.GPU, ok = h.integer(); !ok {
				return false
			}
		case "pid":
			if f.PID, ok = h.integer(); !ok {
				return false
			}
		default:
			if headName(k) || !h.skip() {
				return false // another spelling of a name read above: the general decoder's
			}
		}
		switch h.peek() {
		case ',':
			h.i++
		case '}':
			h.i++
			return true
		default:
			return false
		}
	}
}

// headName: k names one of the heads in another case or with a
// delimiter, as the general decoder (encoding/json's rules) may match it.
func headName(k string) bool {
	var low []byte
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c == '_' || c == '-':
		case c >= 'A' && c <= 'Z':
			low = append(low, c+'a'-'A')
		default:
			low = append(low, c)
		}
	}
	switch string(low) {
	case "rule", "severity", "gpu", "pid":
		return true
	}
	return false
}

// skip passes over one valid JSON value.
func (h *headScan) skip() bool {
	h.ws()
	depth := 0
	for h.i < len(h.b) {
		c := h.b[h.i]
		switch c {
		case '"':
			h.i++
			for h.i < len(h.b) && h.b[h.i] != '"' {
				if h.b[h.i] == '\\' {
					h.i++
				}
				h.i++
			}
			if h.i >= len(h.b) {
				return false
			}
			h.i++
		case '{', '[':
			depth++
			h.i++
		case '}', ']':
			if depth == 0 {
				return true
			}
			depth--
			h.i++
		case ',':
			if depth == 0 {
				return true
			}
			h.i++
		default:
			h.i++
		}
		if depth == 0 && (c == '"' || c == '}' || c == ']') {
			return true
		}
	}
	return depth == 0
}

// severityNamed is Severity's UnmarshalJSON for a plain string.
func severityNamed(s string) (diagnose.Severity, bool) {
	v, err := diagnose.ParseSeverity(s)
	return v, err == nil
}
