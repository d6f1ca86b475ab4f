package trace

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// parseEvent reads the event object at b[i] (b[i] is '{') member by
// member, keeping the fields rawEvent names and skipping the rest. It does
// by hand what json.Unmarshal into rawEvent does (decode_test holds them
// equal): the reflective decoder, then jsontext's tokens, were most of a
// large trace's reading time.
func parseEvent(b []byte, i int, ev *rawEvent, names interner) (int, error) {
	if i = skipWS(b, i+1); i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		k := i
		var key int
		var err error
		if key, i, err = name(b, i); err != nil {
			return 0, err
		}
		switch string(b[k:key]) {
		case `"ph"`:
			i, err = readString(b, i, &ev.Ph)
		case `"cat"`:
			i, err = readString(b, i, &ev.Cat)
		case `"name"`:
			i, err = names.read(b, i, &ev.Name)
		case `"pid"`:
			i, err = readNumber(b, i, &ev.PID)
		case `"tid"`:
			i, err = readNumber(b, i, &ev.TID)
		case `"ts"`:
			i, err = readNumber(b, i, &ev.TS)
		case `"dur"`:
			i, err = readNumber(b, i, &ev.Dur)
		case `"args"`:
			i, err = parseArgs(b, i, ev)
		default:
			i, err = skipValue(b, i, 2)
		}
		if err != nil {
			return 0, err
		}
		if i, err = next(b, i); err != nil || b[i-1] == '}' {
			return i, err
		}
	}
}

// next reads what follows a member: ',' (then the next name) or '}'.
func next(b []byte, i int) (int, error) {
	if i = skipWS(b, i); i >= len(b) {
		return 0, errMore
	}
	switch b[i] {
	case '}':
		return i + 1, nil
	case ',':
		return skipWS(b, i+1), nil
	}
	return 0, invalid(i, "expected ',' or '}' after an object's member")
}

func parseArgs(b []byte, i int, ev *rawEvent) (int, error) {
	if b[i] != '{' {
		return skipValue(b, i, 2) // args that are not an object: none of ours
	}
	if i = skipWS(b, i+1); i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	a := &ev.Args
	for {
		k := i
		var key int
		var err error
		if key, i, err = name(b, i); err != nil {
			return 0, err
		}
		switch string(b[k:key]) {
		case `"stream"`:
			i, err = readNumber(b, i, &a.Stream)
		case `"device"`:
			i, err = readNumber(b, i, &a.Device)
		case `"correlation"`:
			i, err = readNumber(b, i, &a.Corr)
		case `"External id"`:
			i, err = readNumber(b, i, &a.Ext)
		case `"bytes"`:
			i, err = readNumber(b, i, &a.Bytes)
		default:
			i, err = skipValue(b, i, 3)
		}
		if err != nil {
			return 0, err
		}
		if i, err = next(b, i); err != nil || b[i-1] == '}' {
			return i, err
		}
	}
}

// common returns the values every event repeats without a copy.
func common(b []byte) (string, bool) {
	switch string(b) {
	case "X":
		return "X", true
	case "kernel":
		return "kernel", true
	case "cuda_runtime":
		return "cuda_runtime", true
	case "cpu_op":
		return "cpu_op", true
	case "python_function":
		return "python_function", true
	case "cudaLaunchKernel":
		return "cudaLaunchKernel", true
	case "Kernel":
		return "Kernel", true
	case "Runtime":
		return "Runtime", true
	case "Operator":
		return "Operator", true
	}
	return "", false
}

// readString reads a string value into *s; another kind of value is
// skipped and leaves *s as it was, as the lenient reader does with numbers.
func readString(b []byte, i int, s *string) (int, error) {
	if b[i] != '"' {
		return skipValue(b, i, 2)
	}
	end, escaped, err := scanString(b, i)
	if err != nil {
		return 0, err
	}
	if inner := b[i+1 : end-1]; !escaped {
		if c, ok := common(inner); ok {
			*s = c
		} else {
			*s = string(inner)
		}
		return end, nil
	}
	u, err := jsontext.AppendUnquote(nil, b[i:end])
	*s = string(u)
	return end, err
}

// readNumber reads a number, or a number in a string ("tid": "25738"), as
// number.UnmarshalJSONFrom does; anything else leaves it as it was.
func readNumber(b []byte, i int, n *number) (int, error) {
	switch c := b[i]; {
	case c == '"':
		end, escaped, err := scanString(b, i)
		if err == nil && !escaped {
			n.v, n.ok = parseNumber(b[i+1 : end-1])
		}
		return end, err
	case c == '-' || c >= '0' && c <= '9':
		end, err := scanNumber(b, i)
		if err == nil {
			n.v, n.ok = parseNumber(b[i:end])
		}
		return end, err
	}
	return skipValue(b, i, 2)
}

// parseNumber parses a number as strconv.ParseFloat does. Kineto's plain
// integers and decimals of up to 15 digits take the exact path: the digits
// as an integer (exact in a float64) divided by a power of ten (exact up
// to 1e22), one correctly rounded division; anything else goes through
// strconv.
func parseNumber(b []byte) (float64, bool) {
	i := 0
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		i = 1
	}
	var m uint64
	digits, fracDigits, start := 0, 0, i
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		m = m*10 + uint64(b[i]-'0')
		digits++
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			m = m*10 + uint64(b[i]-'0')
			fracDigits++
		}
	}
	if i != len(b) || digits == 0 || digits+fracDigits > 15 || (b[start] == '0' && digits > 1) {
		v, err := strconv.ParseFloat(string(b), 64)
		return v, err == nil
	}
	v := float64(m)
	if fracDigits > 0 {
		v /= pow10[fracDigits]
	}
	if neg {
		v = -v
	}
	return v, true
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// interner hands out one string per distinct event name: a trace repeats a
// few thousand names millions of times, and a string per event was most of
// the reader's garbage. It stops growing at maxInterned names (a trace of
// unique names then costs what it did before).
type interner map[string]string

const maxInterned = 1 << 16

func (in interner) read(b []byte, i int, s *string) (int, error) {
	if b[i] != '"' {
		return skipValue(b, i, 2)
	}
	end, escaped, err := scanString(b, i)
	if err != nil {
		return 0, err
	}
	if escaped {
		u, err := jsontext.AppendUnquote(nil, b[i:end])
		*s = string(u)
		return end, err
	}
	inner := b[i+1 : end-1]
	if c, ok := in[string(inner)]; ok {
		*s = c
		return end, nil
	}
	*s = string(inner)
	if len(in) < maxInterned {
		in[*s] = *s
	}
	return end, nil
}
