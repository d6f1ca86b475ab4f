package trace

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// decodeEvent reads one event object member by member, keeping the fields
// rawEvent names and skipping the rest. It does by hand what
// json.UnmarshalDecode into rawEvent does (reader_test holds them equal):
// the reflective decoder and its per-number strings were most of a large
// trace's reading time.
func decodeEvent(dec *jsontext.Decoder, ev *rawEvent, names interner) error {
	if k := dec.PeekKind(); k != '{' {
		if _, err := dec.ReadToken(); k == 0 && err != nil {
			return err // the end of the input: reader.go words it as truncated
		}
		return errors.New("an event is not a JSON object")
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() != '}' {
		key, err := dec.ReadValue()
		if err != nil {
			return err
		}
		switch string(key) {
		case `"ph"`:
			err = readString(dec, &ev.Ph)
		case `"cat"`:
			err = readString(dec, &ev.Cat)
		case `"name"`:
			err = names.read(dec, &ev.Name)
		case `"pid"`:
			err = readNumber(dec, &ev.PID)
		case `"tid"`:
			err = readNumber(dec, &ev.TID)
		case `"ts"`:
			err = readNumber(dec, &ev.TS)
		case `"dur"`:
			err = readNumber(dec, &ev.Dur)
		case `"args"`:
			err = decodeArgs(dec, ev)
		default:
			err = dec.SkipValue()
		}
		if err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

func decodeArgs(dec *jsontext.Decoder, ev *rawEvent) error {
	if dec.PeekKind() != '{' {
		return dec.SkipValue() // args that are not an object: none of ours
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	a := &ev.Args
	for dec.PeekKind() != '}' {
		key, err := dec.ReadValue()
		if err != nil {
			return err
		}
		switch string(key) {
		case `"stream"`:
			err = readNumber(dec, &a.Stream)
		case `"device"`:
			err = readNumber(dec, &a.Device)
		case `"correlation"`:
			err = readNumber(dec, &a.Corr)
		case `"External id"`:
			err = readNumber(dec, &a.Ext)
		case `"bytes"`:
			err = readNumber(dec, &a.Bytes)
		default:
			err = dec.SkipValue()
		}
		if err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
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
// skipped and leaves *s empty, as the lenient reader does with numbers.
func readString(dec *jsontext.Decoder, s *string) error {
	v, err := dec.ReadValue()
	if err != nil || v.Kind() != '"' {
		return err
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		if c, ok := common(inner); ok {
			*s = c
		} else {
			*s = string(inner)
		}
		return nil
	}
	u, err := jsontext.AppendUnquote(nil, v)
	*s = string(u)
	return err
}

// readNumber reads a number, or a number in a string ("tid": "25738"), as
// number.UnmarshalJSONFrom does; anything else leaves it absent.
func readNumber(dec *jsontext.Decoder, n *number) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	switch v.Kind() {
	case '0':
		n.v, n.ok = parseNumber(v)
	case '"':
		if inner := v[1 : len(v)-1]; bytes.IndexByte(inner, '\\') < 0 {
			n.v, n.ok = parseNumber(inner)
		}
	}
	return nil
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

func (in interner) read(dec *jsontext.Decoder, s *string) error {
	v, err := dec.ReadValue()
	if err != nil || v.Kind() != '"' {
		return err
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		u, err := jsontext.AppendUnquote(nil, v)
		*s = string(u)
		return err
	}
	if c, ok := in[string(inner)]; ok {
		*s = c
		return nil
	}
	*s = string(inner)
	if len(in) < maxInterned {
		in[*s] = *s
	}
	return nil
}
