package trace

import (
	"errors"
	"io"
	"runtime"
	"strings"
)

// MaxEventBytes bounds one event (or one metadata value) of the trace: the
// reader holds a whole value, so this is its memory bound. Kineto's
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

var (
	errNotObject = errors.New("not a profiler trace: an event is not a JSON object")
	errNotArray  = errors.New("not a profiler trace: traceEvents is not an array")
	errNotTrace  = errors.New("not a profiler trace: it does not start with a JSON object")
)

// Read decodes a Chrome-trace JSON object from r, calling yield for every
// complete event in file order, and returns the trace's metadata. It stops
// at yield's first error and returns it. The events are read on every core
// (chunks.go); yield is called on Read's goroutine.
func Read(r io.Reader, yield func(Event) error) (Meta, error) {
	return read(r, yield, min(max(1, runtime.GOMAXPROCS(0)), maxWorkers), blockSize)
}

func read(r io.Reader, yield func(Event) error, workers, size int) (Meta, error) {
	p := newPipeline(r, workers, size)
	defer p.stop()
	in := &input{p: p, names: interner{}}
	m := Meta{Rank: -1}
	err := in.step(func(b []byte) (int, error) {
		i := skipWS(b, 0)
		switch {
		case i >= len(b):
			return 0, errMore
		case b[i] != '{':
			return 0, errNotTrace
		}
		return i + 1, nil
	})
	if _, short := err.(truncated); short {
		err = errNotTrace
	}
	if err != nil {
		return m, err
	}
	sawEvents := false
	for after := false; ; after = true {
		key, end, err := in.key(after)
		if err != nil {
			return m, err
		}
		switch {
		case end:
			if !sawEvents {
				return m, errors.New("not a profiler trace: the JSON object has no traceEvents")
			}
			for _, d := range m.Devices {
				if strings.Contains(d.Name, "AMD") {
					m.Platform = "rocm"
				}
			}
			return m, nil
		case key == "traceEvents":
			sawEvents = true
			err = in.events(&m, yield)
		case key == "deviceProperties":
			err = in.value(&m.Devices)
		case key == "distributedInfo":
			var d distributedInfo
			err = in.value(&d)
			if d.Rank != nil {
				m.Rank = *d.Rank
			}
			m.WorldSize, m.Backend = d.WorldSize, d.Backend
		case key == "baseTimeNanoseconds":
			err = in.value(&m.BaseTimeNanoseconds)
		default:
			err = in.value(nil)
		}
		if err != nil {
			return m, err
		}
	}
}

// events reads the traceEvents array, taking a worker's events for every
// block whose start its own reading reached between two members.
func (in *input) events(m *Meta, yield func(Event) error) error {
	err := in.step(func(b []byte) (int, error) {
		i := skipWS(b, 0)
		switch {
		case i >= len(b):
			return 0, errMore
		case b[i] != '[':
			return 0, errNotArray
		}
		return i + 1, nil
	})
	if err != nil {
		return err
	}
	first := true
	var r members
	for {
		if in.pos == len(in.buf) && !first {
			b, ok := in.p.next()
			if !ok {
				return in.p.end()
			}
			if err := in.take(m, &b.r, yield); err != nil {
				return err
			}
			if b.r.err != nil && b.r.err != errMore {
				return word(b.r.err, b.start)
			}
			if b.r.err == nil || b.r.off < len(b.data) { // the array's end, or an event that goes on
				in.buf, in.pos, in.base = append(in.buf[:0], b.data[b.r.off:]...), 0, b.start+int64(b.r.off)
				first = b.r.first
			}
			end := b.r.end
			in.p.recycle(b) // a worker may read into it now
			if end {
				return nil
			}
			continue
		}
		readMembers(in.buf[in.pos:], first, in.names, &r)
		if err := in.take(m, &r, yield); err != nil {
			return err
		}
		if r.err != nil && r.err != errMore {
			return word(r.err, in.base+int64(in.pos))
		}
		in.pos += r.off
		first = r.first
		if r.end {
			return nil
		}
		if in.pos == len(in.buf) && !first {
			continue // a block's start, between two members
		}
		if err := in.more(); err != nil {
			return err
		}
	}
}

// take yields the events a run of members held, and counts them.
func (in *input) take(m *Meta, r *members, yield func(Event) error) error {
	if r.mtia {
		m.Platform = "mtia"
	}
	for _, e := range r.events {
		m.Events++
		if e.Kind.GPU() {
			m.GPUEvents++
		}
		notePlatform(m, e)
		if err := yield(e); err != nil {
			return err
		}
	}
	return nil
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
// like CUDA's but whose names and semantics differ (take notes an MTIA
// category).
func notePlatform(m *Meta, e Event) {
	switch {
	case m.Platform == "" && e.Kind == Runtime && strings.HasPrefix(e.Name, "hip"):
		m.Platform = "rocm"
	case m.Platform == "" && e.Kind == Runtime && strings.HasPrefix(e.Name, "cuda"):
		m.Platform = "cuda"
	}
}
