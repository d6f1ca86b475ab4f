package record

import (
	"reflect"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// A reader of the lines the recorder writes, field by field, without
// reflection: decoding a day's recording with the general decoder was
// two thirds of `report`'s CPU, most of it its per-field reflection
// (docs/benchmarks.md, "Recordings: a line read without reflection"). It
// knows the fields of a line, in the order the writer writes them, and
// refuses anything else (scanner.bad): decodeEntry then decodes the line
// with the general decoder, so what a line reads as never depends on which
// reader read it (TestFastDecodeAgrees, FuzzFastDecode).

// The names of each object's fields in the order json writes them, from
// the types' own tags, so that a field added to a type is refused (and
// read by the general decoder) until a case below reads it.
var (
	entryKeys = jsonOrder(reflect.TypeFor[wireEntry]())
	nodeKeys  = jsonOrder(reflect.TypeFor[sampler.Node]())
	gpuKeys   = jsonOrder(reflect.TypeFor[sampler.GPU]())
	gprocKeys = jsonOrder(reflect.TypeFor[sampler.GPUProc]())
	hostKeys  = jsonOrder(reflect.TypeFor[sampler.Host]())
	procKeys  = jsonOrder(reflect.TypeFor[sampler.Proc]())
	podKeys   = jsonOrder(reflect.TypeFor[sampler.Pod]())
)

// jsonOrder lists t's JSON member names in field order, embedded structs
// inlined as encoding/json does.
func jsonOrder(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-" || !f.IsExported() && !f.Anonymous:
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			out = append(out, jsonOrder(f.Type)...)
		case tag != "":
			out = append(out, tag)
		default:
			out = append(out, f.Name)
		}
	}
	return out
}

// fastEntry reads line into l (fresh, its GPU slice empty) with s, one
// decoding goroutine's; false when the general decoder must read it.
func fastEntry(s *scanner, line []byte, l *wireEntry) bool {
	s.b, s.i, s.bad = line, 0, false
	s.entry(l)
	s.ws()
	return !s.bad && s.i == len(s.b)
}

func (s *scanner) entry(l *wireEntry) {
	if !s.expect('{') {
		return
	}
	at := -1
	for n := 0; s.more(&n, '}'); {
		switch s.key(entryKeys, &at) {
		case "time":
			s.time(&l.Time)
		case "seq":
			l.Seq = uint64(s.integer(0, 1<<63-1))
		case "node":
			s.node(&l.Node)
		case "gpus":
			s.gpus(&l.GPUs)
		case "host":
			if !s.null() {
				l.Host = new(sampler.Host)
				s.host(l.Host)
			}
		case "topology":
			s.other(&l.Topology)
		case "problems":
			s.other(&l.Problems)
		case "findings":
			if s.peek() == 'n' {
				s.bad = true // json.RawMessage's null has its own rules
				return
			}
			l.Findings = append([]byte(nil), s.value(0)...)
		case "same_gpus":
			l.SameGPUs = s.ints()
		case "steady_gpus":
			l.SteadyGPUs = s.ints()
		case "same_procs":
			l.SameProcs = s.ints()
		case "same_links":
			l.SameLinks = s.ints()
		case "same_topology":
			l.SameTopology = s.boolean()
		case "same_findings":
			l.SameFindings = s.ints()
		case "seen_findings":
			l.SeenFindings = s.ints()
		default:
			s.bad = true
		}
	}
}

func (s *scanner) time(t interface{ UnmarshalText([]byte) error }) {
	if v := s.rawString(); !s.bad && t.UnmarshalText(v) != nil {
		s.bad = true
	}
}

func (s *scanner) node(nd *sampler.Node) {
	if !s.expect('{') {
		return
	}
	at := -1
	for n := 0; s.more(&n, '}'); {
		switch s.key(nodeKeys, &at) {
		case "hostname":
			nd.Hostname = s.str()
		case "driver":
			nd.Driver = s.str()
		case "cuda":
			nd.CUDA = s.str()
		case "nvml":
			nd.NVML = s.str()
		case "source":
			nd.Source = s.str()
		case "gpu_error":
			s.other(&nd.GPUError)
		case "cuda_error":
			nd.CUDAError = s.str()
		case "container_error":
			nd.ContainerError = s.str()
		case "driver_mismatch":
			nd.DriverMismatch = s.str()
		case "fabric_error":
			nd.FabricError = s.str()
		case "procs_from":
			nd.ProcsFrom = s.str()
		case "diag":
			s.other(&nd.Diag)
		case "slice_oom":
			s.other(&nd.SliceOOM)
		default:
			s.bad = true
		}
	}
}

func (s *scanner) gpus(gs *[]sampler.GPU) {
	if s.null() {
		*gs = nil
		return
	}
	if !s.expect('[') {
		return
	}
	if *gs == nil {
		*gs = []sampler.GPU{}
	}
	for n := 0; s.more(&n, ']'); {
		*gs = append(*gs, sampler.GPU{})
		s.gpu(&(*gs)[len(*gs)-1])
	}
}

func (s *scanner) pod(p *sampler.Pod) {
	if !s.expect('{') {
		return
	}
	at := -1
	for n := 0; s.more(&n, '}'); {
		switch s.key(podKeys, &at) {
		case "namespace":
			p.Namespace = s.str()
		case "name":
			p.Name = s.str()
		case "container":
			p.Container = s.str()
		default:
			s.bad = true
		}
	}
}

func (s *scanner) clockEvents(c *sampler.ClockEvents) {
	if s.peek() == '[' && s.i+1 < len(s.b) && s.b[s.i+1] == ']' {
		s.i += 2
		*c = sampler.ClockEvents{OK: true} // as UnmarshalJSON reads []
		return
	}
	// The names as UnmarshalJSON reads them: unknown ones ignored.
	if !s.expect('[') {
		return
	}
	*c = sampler.ClockEvents{OK: true}
	for n := 0; s.more(&n, ']'); {
		name := s.rawString()
		for _, r := range clockReasons {
			if r.Name == string(name) {
				c.Mask |= r.Bit
			}
		}
	}
}

var clockReasons = sampler.ClockEventReasons()

// strings reads a map of strings (a GPU's reasons for n/a readings).
func (s *scanner) strings() map[string]string {
	if !s.expect('{') {
		return nil
	}
	out := map[string]string{}
	for n := 0; s.more(&n, '}'); {
		k := s.str()
		if s.bad || !s.expect(':') {
			return nil
		}
		had := len(out)
		if out[k] = s.str(); len(out) == had {
			s.bad = true // a name twice
		}
	}
	return out
}

func (s *scanner) gpuProcs() []sampler.GPUProc {
	if !s.expect('[') {
		return nil
	}
	out := []sampler.GPUProc{}
	for n := 0; s.more(&n, ']'); {
		var p sampler.GPUProc
		if !s.expect('{') {
			return nil
		}
		at := -1
		for m := 0; s.more(&m, '}'); {
			switch s.key(gprocKeys, &at) {
			case "pid":
				p.PID = s.int()
			case "type":
				p.Type = s.short()
			case "mem_used":
				p.MemUsed = s.metric()
			case "sm_util":
				p.SMUtil = s.metric()
			case "mem_util":
				p.MemUtil = s.metric()
			default:
				s.bad = true
			}
		}
		out = append(out, p)
	}
	return out
}

// short reads a string that is most often one of a few short words
// (process types and states) without allocating for those.
func (s *scanner) short() string {
	v := s.rawString()
	switch string(v) {
	case "C":
		return "C"
	case "G":
		return "G"
	case "C+G":
		return "C+G"
	case "R":
		return "R"
	case "S":
		return "S"
	case "D":
		return "D"
	}
	return string(v)
}
