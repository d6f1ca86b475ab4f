package trace

import (
	"encoding/binary"
	"errors"
)

// A JSON scanner over a buffer that may end anywhere: each function reads
// one value at b[i] and returns the index after it, errMore when b ends
// inside it (the caller reads on and tries again from the same place), or a
// *syntaxError. It checks the grammar as jsontext does with invalid UTF-8
// and duplicate names allowed (the decoder the reader used before), so the
// same files are refused; see docs/ARCHITECTURE.md, "Reading a trace".

// errMore is a buffer that ended inside a value.
var errMore = errors.New("more input needed")

// syntaxError is invalid JSON at off, an index into the scanned buffer.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

func invalid(off int, msg string) error { return &syntaxError{off, msg} }

// maxDepth is jsontext's nesting limit.
const maxDepth = 10000

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// scanString reads the string at b[i] (b[i] is '"'); escaped says whether
// it has escapes (its text then needs unquoting).
func scanString(b []byte, i int) (end int, escaped bool, err error) {
	j := i + 1
	for j+8 <= len(b) && plain8(binary.LittleEndian.Uint64(b[j:])) {
		j += 8 // a kernel's name is hundreds of plain bytes
	}
	for ; j < len(b); j++ {
		c := b[j]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		switch {
		case c == '"':
			return j + 1, escaped, nil
		case c < 0x20:
			return 0, escaped, invalid(j, "invalid character in string")
		}
		escaped = true
		if j++; j >= len(b) {
			return 0, escaped, errMore
		}
		switch b[j] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if j+4 >= len(b) {
				return 0, escaped, errMore
			}
			for _, h := range b[j+1 : j+5] {
				if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
					return 0, escaped, invalid(j, `invalid \u escape`)
				}
			}
			j += 4
		default:
			return 0, escaped, invalid(j, "invalid escape in string")
		}
	}
	return 0, escaped, errMore
}

// plain8 says whether none of 8 bytes ends a string or needs a look: no
// '"', '\\' or control character (each test is "has a zero byte", exact).
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, s := x^(ones*'"'), x^(ones*'\\')
	return ((x-ones*0x20)&^x|(q-ones)&^q|(s-ones)&^s)&highs == 0
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// scanNumber reads the number at b[i]. A number at the end of b may go on
// in the next bytes: errMore.
func scanNumber(b []byte, i int) (int, error) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j >= len(b):
		return 0, errMore
	case b[j] == '0':
		j++
	case b[j] >= '1' && b[j] <= '9':
		j = digits(b, j)
	default:
		return 0, invalid(j, "invalid number")
	}
	if j < len(b) && b[j] == '.' {
		k := digits(b, j+1)
		if k == j+1 && k < len(b) {
			return 0, invalid(k, "invalid number")
		}
		j = k
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := digits(b, j)
		if k == j && k < len(b) {
			return 0, invalid(k, "invalid number")
		}
		j = k
	}
	if j >= len(b) {
		return 0, errMore
	}
	return j, nil
}

func scanLiteral(b []byte, i int, lit string) (int, error) {
	for k := 0; k < len(lit); k++ {
		switch {
		case i+k >= len(b):
			return 0, errMore
		case b[i+k] != lit[k]:
			return 0, invalid(i+k, "invalid literal")
		}
	}
	return i + len(lit), nil
}

// skipValue reads any value at b[i]; depth is how deep it is.
func skipValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return 0, errMore
	}
	switch c := b[i]; {
	case c == '"':
		end, _, err := scanString(b, i)
		return end, err
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return 0, invalid(i, "nested too deeply")
		}
		return skipComposite(b, i, depth+1)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return scanNumber(b, i)
	}
	return 0, invalid(i, "invalid character at the start of a value")
}

// skipComposite reads the object or array at b[i].
func skipComposite(b []byte, i, depth int) (int, error) {
	obj, closer := b[i] == '{', byte(']')
	if obj {
		closer = '}'
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == closer {
		return i + 1, nil
	}
	for {
		var err error
		if obj {
			if i, err = member(b, i); err != nil {
				return 0, err
			}
		}
		if i, err = skipValue(b, i, depth); err != nil {
			return 0, err
		}
		if i = skipWS(b, i); i >= len(b) {
			return 0, errMore
		}
		switch b[i] {
		case closer:
			return i + 1, nil
		case ',':
			i = skipWS(b, i+1)
		default:
			return 0, invalid(i, "expected ',' or the end of an object or array")
		}
	}
}

// member reads an object member's name and colon at b[i] and returns where
// its value starts.
func member(b []byte, i int) (int, error) {
	_, v, err := name(b, i)
	return v, err
}

// name is member that also says where the name's string ends.
func name(b []byte, i int) (end, value int, err error) {
	if i >= len(b) {
		return 0, 0, errMore
	}
	if b[i] != '"' {
		return 0, 0, invalid(i, "expected a string for an object's name")
	}
	if end, _, err = scanString(b, i); err != nil {
		return 0, 0, err
	}
	if i = skipWS(b, end); i >= len(b) {
		return 0, 0, errMore
	}
	if b[i] != ':' {
		return 0, 0, invalid(i, "expected ':' after an object's name")
	}
	if i = skipWS(b, i+1); i >= len(b) {
		return 0, 0, errMore
	}
	return end, i, nil
}
