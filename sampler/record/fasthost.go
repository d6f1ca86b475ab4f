package record

import (
	"github.com/gpuscope/gpuscope/sampler"
)

// The host part of a line, for fastentry.go.

func (s *scanner) host(h *sampler.Host) {
	if !s.expect('{') {
		return
	}
	at := -1
	for n := 0; s.more(&n, '}'); {
		switch k := s.key(hostKeys, &at); k {
		case "cpus":
			if s.null() {
				h.CPUs = nil
				continue
			}
			if !s.expect('[') {
				return
			}
			if s.lean { // read, not kept (lean.go)
				for m := 0; s.more(&m, ']'); {
					s.float()
				}
				continue
			}
			h.CPUs = make([]float64, 0, max(s.cpuHint, 8))
			for m := 0; s.more(&m, ']'); {
				h.CPUs = append(h.CPUs, s.float())
			}
			s.cpuHint = len(h.CPUs)
		case "procs":
			s.procs(h)
		case "foreign_pids":
			h.ForeignPIDs = s.boolean()
		default:
			if m := hostMetric(h, k); m != nil {
				*m = s.metric()
			} else {
				s.bad = true
			}
		}
	}
}

func hostMetric(h *sampler.Host, k string) *sampler.Metric {
	switch k {
	case "cpu":
		return &h.CPU
	case "iowait":
		return &h.IOWait
	case "load1":
		return &h.Load1
	case "load5":
		return &h.Load5
	case "load15":
		return &h.Load15
	case "mem_total":
		return &h.MemTotal
	case "mem_used":
		return &h.MemUsed
	case "swap_total":
		return &h.SwapTotal
	case "swap_used":
		return &h.SwapUsed
	case "disk_read":
		return &h.DiskRead
	case "disk_write":
		return &h.DiskWrite
	case "net_rx":
		return &h.NetRx
	case "net_tx":
		return &h.NetTx
	}
	return nil
}

// procs reads the host processes, keyed by PID as decimal text.
func (s *scanner) procs(h *sampler.Host) {
	if !s.expect('{') {
		return
	}
	// Sized as the line before: a map grown entry by entry, and one
	// allocation per process, were a third of a report's allocated bytes.
	// A line's records of a lean read come back once read (Reader.Lean).
	m := s.spare
	s.spare = procMem{}
	if h.Procs = m.procs; h.Procs != nil {
		clear(h.Procs)
	} else {
		h.Procs = make(map[int]*sampler.Proc, s.procHint)
	}
	slab := m.slab[:0]
	if cap(slab) < s.procHint {
		slab = make([]sampler.Proc, 0, s.procHint)
	}
	defer func() {
		s.procHint = len(h.Procs)
		if s.lean {
			s.used = procMem{slab: slab, procs: h.Procs}
		}
	}()
	for n := 0; s.more(&n, '}'); {
		k := s.rawString()
		if s.bad || !s.expect(':') || !canonicalInt(k) {
			s.bad = true
			return
		}
		pid, ok := keyInt(k)
		if !ok {
			s.bad = true
			return
		}
		if len(slab) == cap(slab) {
			slab = make([]sampler.Proc, 0, max(8, 2*cap(slab)))
		}
		slab = slab[:len(slab)+1]
		p := &slab[len(slab)-1]
		*p = sampler.Proc{} // a reused record
		s.proc(p)
		had := len(h.Procs)
		if h.Procs[pid] = p; len(h.Procs) == had {
			s.bad = true // a PID twice
		}
	}
}

// keyInt is the value of a key canonicalInt accepted (at most 18 digits:
// no int64 overflows), false where it does not fit an int. strconv's Atoi
// here was a tenth of the host's reading, a string made of each key first.
func keyInt(k []byte) (int, bool) {
	neg := k[0] == '-'
	if neg {
		k = k[1:]
	}
	var v int64
	for _, c := range k {
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return int(v), int64(int(v)) == v
}

// canonicalInt: decimal digits as strconv.Itoa writes them.
func canonicalInt(k []byte) bool {
	if len(k) > 0 && k[0] == '-' {
		k = k[1:]
	}
	if len(k) == 0 || len(k) > 18 || k[0] == '0' && len(k) > 1 {
		return false
	}
	for _, c := range k {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (s *scanner) proc(p *sampler.Proc) {
	if !s.expect('{') {
		return
	}
	at := -1
	for n := 0; s.more(&n, '}'); {
		switch s.key(procKeys, &at) {
		case "pid":
			p.PID = s.int()
		case "ppid":
			p.PPID = s.int()
		case "user":
			p.User = s.str()
		case "name":
			p.Name = s.str()
		case "cmdline":
			p.Cmdline = s.str()
		case "state":
			p.State = s.short()
		case "cpu":
			p.CPU = s.metric()
		case "rss":
			p.RSS = s.metric()
		case "threads":
			p.Threads = s.int()
		case "start":
			s.time(&p.Start)
		case "container":
			p.Container = s.str()
		case "pod_uid":
			p.PodUID = s.str()
		case "pod":
			s.pod(&p.Pod)
		case "children":
			if s.lean { // read, not kept (lean.go)
				s.skipInts()
			} else {
				p.Children = s.ints()
			}
		default:
			s.bad = true
		}
	}
}
