package trace

import (
	"errors"
	"fmt"
	"io"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MaxEventBytes bounds one event (or one metadata value) of the trace: the
// decoder buffers a whole value, so this is the reader's memory bound. Kineto's
// largest events (a kernel with its args) are well under a kilobyte.
const MaxEventBytes = 4 << 20

// ErrEventTooLarge is a single value of the trace over MaxEventBytes.
var ErrEventTooLarge = errors.New("one event is over 4 MiB: not a profiler trace, or a damaged one")

// rawEvent is the subset of a Chrome-trace event the analysis uses.
type rawEvent struct {
	Ph   string `json:"ph"`
	Cat  string `json:"cat"`
	Name string `json:"name"`
	PID  number `json:"pid"`
	TID  number `json:"tid"`
	TS   number `json:"ts"`
	Dur  number `json:"dur"`
	Args struct {
		Stream number `json:"stream"`
		Device number `json:"device"`
		Corr   number `json:"correlation"`
		Ext    number `json:"External id"`
		Bytes  number `json:"bytes"`
	} `json:"args"`
}

type distributedInfo struct {
	Rank      *int   `json:"rank"`
	WorldSize int    `json:"world_size"`
	Backend   string `json:"backend"`
}

// Read decodes a Chrome-trace JSON object from r, calling yield for every
// complete event in file order, and returns the trace's metadata. It stops
// at yield's first error and returns it.
func Read(r io.Reader, yield func(Event) error) (Meta, error) {
	g := &guard{r: r}
	dec := jsontext.NewDecoder(g, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) // neither checked: Kineto writes neither, and checking is a third of the decoding
	m := Meta{Rank: -1}
	if dec.PeekKind() != '{' {
		return m, errors.New("not a profiler trace: it does not start with a JSON object")
	}
	if _, err := dec.ReadToken(); err != nil {
		return m, describe(err, g)
	}
	sawEvents := false
	var ev rawEvent
	for dec.PeekKind() != '}' {
		g.allow(dec.InputOffset())
		tok, err := dec.ReadToken()
		if err != nil {
			return m, describe(err, g)
		}
		g.allow(dec.InputOffset())
		switch key := tok.String(); key {
		case "traceEvents":
			sawEvents = true
			if err := readEvents(dec, g, &m, &ev, yield); err != nil {
				return m, err
			}
		case "deviceProperties":
			err = jsonv2.UnmarshalDecode(dec, &m.Devices)
		case "distributedInfo":
			var d distributedInfo
			err = jsonv2.UnmarshalDecode(dec, &d)
			if d.Rank != nil {
				m.Rank = *d.Rank
			}
			m.WorldSize, m.Backend = d.WorldSize, d.Backend
		case "baseTimeNanoseconds":
			err = jsonv2.UnmarshalDecode(dec, &m.BaseTimeNanoseconds)
		default:
			err = dec.SkipValue()
		}
		if err != nil {
			return m, describe(err, g)
		}
	}
	if !sawEvents {
		return m, errors.New("not a profiler trace: the JSON object has no traceEvents")
	}
	for _, d := range m.Devices {
		if strings.Contains(d.Name, "AMD") {
			m.Platform = "rocm"
		}
	}
	return m, nil
}

func readEvents(dec *jsontext.Decoder, g *guard, m *Meta, ev *rawEvent, yield func(Event) error) error {
	names := interner{}
	if dec.PeekKind() != '[' {
		return errors.New("not a profiler trace: traceEvents is not an array")
	}
	if _, err := dec.ReadToken(); err != nil {
		return describe(err, g)
	}
	for dec.PeekKind() != ']' {
		g.allow(dec.InputOffset())
		*ev = rawEvent{}
		if err := decodeEvent(dec, ev, names); err != nil {
			return describe(err, g)
		}
		if ev.Ph != "X" {
			continue
		}
		e := convert(ev)
		m.Events++
		if e.Kind.GPU() {
			m.GPUEvents++
		}
		notePlatform(m, ev.Cat, e)
		if err := yield(e); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return describe(err, g)
}

func convert(ev *rawEvent) Event {
	a := &ev.Args
	return Event{Kind: kindOf(ev.Cat, ev.Name), Name: ev.Name, PID: ev.PID.int(0), TID: ev.TID.int(0),
		TS: ev.TS.v, Dur: ev.Dur.v, Stream: int(a.Stream.int(-1)), Device: int(a.Device.int(-1)),
		Corr: a.Corr.int(0), Ext: a.Ext.int(0), Bytes: a.Bytes.int(0)}
}

func kindOf(cat, name string) Kind {
	if strings.HasPrefix(name, "ProfilerStep#") {
		return ProfilerStep
	}
	// The capitalised names are Kineto's first schema (PyTorch 1.8/1.9).
	switch cat {
	case "kernel", "Kernel":
		return Kernel
	case "gpu_memcpy", "Memcpy":
		return Memcpy
	case "gpu_memset", "Memset":
		return Memset
	case "cuda_runtime", "Runtime":
		return Runtime
	case "cuda_driver":
		return Driver
	case "cpu_op", "Operator":
		return CPUOp
	case "python_function":
		return Python
	case "user_annotation":
		return Annotation
	case "gpu_user_annotation":
		return GPUAnnotation
	case "cuda_sync":
		return Sync
	}
	return Other
}

// notePlatform recognises traces of other accelerators, whose events look
// like CUDA's but whose names and semantics differ.
func notePlatform(m *Meta, cat string, e Event) {
	switch {
	case strings.HasPrefix(cat, "mtia"):
		m.Platform = "mtia"
	case m.Platform == "" && e.Kind == Runtime && strings.HasPrefix(e.Name, "hip"):
		m.Platform = "rocm"
	case m.Platform == "" && e.Kind == Runtime && strings.HasPrefix(e.Name, "cuda"):
		m.Platform = "cuda"
	}
}

// describe turns a decoder error into what the reader can act on.
func describe(err error, g *guard) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrEventTooLarge):
		return ErrEventTooLarge
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("the trace ends early after %d bytes: truncated (was the profiler stopped before it finished writing?)", g.n)
	}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		return fmt.Errorf("not valid JSON at byte %d: %v", se.ByteOffset, se.Err)
	}
	return fmt.Errorf("not a profiler trace: %w", err)
}

// guard is the input under the decoder: it refuses to read more than
// MaxEventBytes past the start of the value being decoded, which bounds the
// decoder's buffer on a huge line.
type guard struct {
	r     io.Reader
	n     int64 // bytes read so far
	limit int64
}

func (g *guard) allow(offset int64) { g.limit = offset + MaxEventBytes }

func (g *guard) Read(p []byte) (int, error) {
	if g.limit == 0 {
		g.limit = MaxEventBytes
	}
	if g.n >= g.limit {
		return 0, ErrEventTooLarge
	}
	if room := g.limit - g.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	return n, err
}
