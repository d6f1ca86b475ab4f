package trace

import (
	"errors"
	"fmt"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// input is the trace as Read reads it itself (the object around the
// events, and events where a worker's reading cannot be used): what is left
// of the blocks taken so far.
type input struct {
	p     *pipeline
	buf   []byte
	pos   int   // where reading is in buf
	base  int64 // buf[0]'s offset in the input
	names interner
}

// truncated is the input's end inside the trace, after n bytes.
type truncated int64

func (t truncated) Error() string {
	return fmt.Sprintf("the trace ends early after %d bytes: truncated (was the profiler stopped before it finished writing?)", int64(t))
}

// end says why the input ended: a read error (a damaged gzip stream, which
// ReadStream words), or a trace cut short.
func (p *pipeline) end() error {
	if p.err != nil && !errors.Is(p.err, io.ErrUnexpectedEOF) {
		return p.err
	}
	return truncated(p.n)
}

// more adds the next block to what is left to read. What is left is one
// value, not yet whole: over MaxEventBytes it is refused.
func (in *input) more() error {
	if in.pos > 0 {
		in.base += int64(in.pos)
		in.buf, in.pos = in.buf[:copy(in.buf, in.buf[in.pos:])], 0
	}
	if len(in.buf) > MaxEventBytes {
		return ErrEventTooLarge
	}
	b, ok := in.p.next()
	if !ok {
		return in.p.end()
	}
	if len(in.buf) == 0 {
		in.base = b.start
	}
	in.buf = append(in.buf, b.data...)
	in.p.recycle(b)
	return nil
}

// step reads one thing with read, which returns how many bytes it took,
// again with more bytes while they are not enough.
func (in *input) step(read func(b []byte) (int, error)) error {
	for {
		n, err := read(in.buf[in.pos:])
		if err == nil {
			in.pos += n
			return nil
		}
		if err != errMore {
			return word(err, in.base+int64(in.pos))
		}
		if err := in.more(); err != nil {
			return err
		}
	}
}

// key reads the trace object's next member name (after a ',' unless it is
// the first), or says it ended.
func (in *input) key(after bool) (key string, end bool, err error) {
	err = in.step(func(b []byte) (int, error) {
		i := skipWS(b, 0)
		if i >= len(b) {
			return 0, errMore
		}
		if b[i] == '}' {
			end = true
			return i + 1, nil
		}
		if after {
			if b[i] != ',' {
				return 0, invalid(i, "expected ',' or '}' after an object's member")
			}
			i = skipWS(b, i+1)
		}
		k, v, err := name(b, i)
		if err != nil {
			return 0, err
		}
		u, err := jsontext.AppendUnquote(nil, b[i:k])
		key = string(u)
		return v, err
	})
	return key, end, err
}

// value reads one value into v (nil: skipped).
func (in *input) value(v any) error {
	var raw []byte
	err := in.step(func(b []byte) (int, error) {
		end, err := skipValue(b, 0, 1)
		if end > MaxEventBytes {
			return 0, ErrEventTooLarge
		}
		raw = b[:end]
		return end, err
	})
	if err != nil || v == nil {
		return err
	}
	if err := jsonv2.Unmarshal(raw, v, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)); err != nil {
		return fmt.Errorf("not a profiler trace: %w", err)
	}
	return nil
}

// word turns what the scanner found at base+its offset into one line.
func word(err error, base int64) error {
	var se *syntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("not valid JSON at byte %d: %s", base+int64(se.off), se.msg)
	case err == errNotObject || err == errNotArray || err == errNotTrace || err == ErrEventTooLarge:
		return err
	}
	return fmt.Errorf("not a profiler trace: %w", err)
}
