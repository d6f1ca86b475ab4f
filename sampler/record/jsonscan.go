package record

import "bytes"

// A byte scan of JSON text the recorder encoded or the decoder already
// accepted (findings.go): it finds where the findings of a list begin and
// end and where one key's string value lies, without decoding, since a
// finding is only compared and copied. On text that is not valid JSON it
// answers false or a split that compares unequal, never out of bounds.

// splitArray returns the items of a JSON array, each without the blanks
// around it; false when raw is not an array (null, absent).
func splitArray(raw []byte) ([][]byte, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, false
	}
	var out [][]byte
	depth, start := 0, 1
	for i := 1; i < len(raw)-1; i++ {
		switch raw[i] {
		case '"':
			i = stringEnd(raw, i) - 1
			if i < 0 {
				return nil, false
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, bytes.TrimSpace(raw[start:i]))
				start = i + 1
			}
		}
	}
	if last := bytes.TrimSpace(raw[start : len(raw)-1]); len(last) > 0 || len(out) > 0 {
		out = append(out, last)
	}
	return out, true
}

// stringValue locates the string value of key among obj's own keys (not
// those of objects inside it): obj[s:e] is the value with its quotes.
func stringValue(obj []byte, key string) (s, e int, ok bool) {
	depth, wantKey := 0, false
	for i := 0; i < len(obj); i++ {
		switch c := obj[i]; c {
		case '{', '[':
			depth++
			wantKey = c == '{' && depth == 1
		case '}', ']':
			depth--
		case ',':
			wantKey = depth == 1
		case '"':
			end := stringEnd(obj, i)
			if end < 0 {
				return 0, 0, false
			}
			if wantKey && depth == 1 {
				wantKey = false
				if string(obj[i+1:end-1]) == key {
					j := skipBlank(obj, end)
					if j >= len(obj) || obj[j] != ':' {
						return 0, 0, false
					}
					j = skipBlank(obj, j+1)
					if j >= len(obj) || obj[j] != '"' {
						return 0, 0, false
					}
					if ve := stringEnd(obj, j); ve > 0 {
						return j, ve, true
					}
					return 0, 0, false
				}
			}
			i = end - 1
		}
	}
	return 0, 0, false
}

// stringEnd returns the index just past the string starting at b[i] (a
// quote), or -1 when it does not end.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

func skipBlank(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
