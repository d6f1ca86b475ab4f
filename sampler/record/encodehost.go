package record

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// The host's part of a line and the values every part is made of, for
// lineEncoder (encode.go).

func (e *lineEncoder) host(h *sampler.Host) {
	e.b = append(e.b, `{"cpus":`...)
	if h.CPUs == nil {
		e.b = append(e.b, "null"...)
	} else {
		for i, v := range h.CPUs {
			e.sep(i)
			e.float(v)
		}
		e.end(len(h.CPUs))
	}
	e.metric(`,"cpu":`, h.CPU)
	e.metric(`,"iowait":`, h.IOWait)
	e.metric(`,"load1":`, h.Load1)
	e.metric(`,"load5":`, h.Load5)
	e.metric(`,"load15":`, h.Load15)
	e.metric(`,"mem_total":`, h.MemTotal)
	e.metric(`,"mem_used":`, h.MemUsed)
	e.metric(`,"swap_total":`, h.SwapTotal)
	e.metric(`,"swap_used":`, h.SwapUsed)
	e.metric(`,"disk_read":`, h.DiskRead)
	e.metric(`,"disk_write":`, h.DiskWrite)
	e.metric(`,"net_rx":`, h.NetRx)
	e.metric(`,"net_tx":`, h.NetTx)
	if len(h.Procs) > 0 {
		e.b = append(e.b, `,"procs":`...)
		e.procs(h.Procs)
	}
	e.flag(`,"foreign_pids":true`, h.ForeignPIDs)
	e.b = append(e.b, '}')
}

// procs writes the map in jsonv1's order: by the keys' text, so "10"
// comes before "9".
func (e *lineEncoder) procs(m map[int]*sampler.Proc) {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b int) int {
		var x, y [20]byte
		return slices.Compare(strconv.AppendInt(x[:0], int64(a), 10), strconv.AppendInt(y[:0], int64(b), 10))
	})
	e.b = append(e.b, '{')
	for i, k := range keys {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = append(strconv.AppendInt(append(e.b, '"'), int64(k), 10), `":`...)
		if p := m[k]; p == nil {
			e.b = append(e.b, "null"...)
		} else {
			e.proc(p)
		}
	}
	e.b = append(e.b, '}')
}

func (e *lineEncoder) proc(p *sampler.Proc) {
	e.b = append(e.b, `{"pid":`...)
	e.b = strconv.AppendInt(e.b, int64(p.PID), 10)
	e.b = strconv.AppendInt(append(e.b, `,"ppid":`...), int64(p.PPID), 10)
	e.field(`,"user":`, p.User)
	e.field(`,"name":`, p.Name)
	e.field(`,"cmdline":`, p.Cmdline)
	e.field(`,"state":`, p.State)
	e.metric(`,"cpu":`, p.CPU)
	e.metric(`,"rss":`, p.RSS)
	if p.Threads != 0 {
		e.b = strconv.AppendInt(append(e.b, `,"threads":`...), int64(p.Threads), 10)
	}
	if !p.Start.IsZero() {
		e.b = append(e.b, `,"start":`...)
		e.time(p.Start)
	}
	e.field(`,"container":`, p.Container)
	e.field(`,"pod_uid":`, p.PodUID)
	e.pod(p.Pod)
	if len(p.Children) > 0 {
		e.ints(`,"children":`, p.Children)
	}
	e.b = append(e.b, '}')
}

func (e *lineEncoder) pod(p sampler.Pod) {
	if p == (sampler.Pod{}) {
		return
	}
	e.b = append(e.b, `,"pod":`...)
	e.any(p)
}

// str appends s quoted; text with anything but printable ASCII, a quote
// or a backslash is escaped by the jsonv1 encoder.
func (e *lineEncoder) str(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			e.any(s)
			return
		}
	}
	e.b = append(append(append(e.b, '"'), s...), '"')
}

// field appends key and s unless s is empty (omitempty).
func (e *lineEncoder) field(key, s string) {
	if s != "" {
		e.b = append(e.b, key...)
		e.str(s)
	}
}

func (e *lineEncoder) flag(keyTrue string, on bool) {
	if on {
		e.b = append(e.b, keyTrue...)
	}
}

func (e *lineEncoder) count(key string, n uint64) {
	if n != 0 {
		e.b = strconv.AppendUint(append(e.b, key...), n, 10)
	}
}

// metric: sampler.Metric's MarshalJSON ('g', null for n/a and non-finite
// numbers), left out when unavailable (omitzero).
func (e *lineEncoder) metric(key string, m sampler.Metric) {
	if !m.OK {
		return
	}
	e.b = append(e.b, key...)
	if math.IsNaN(m.V) || math.IsInf(m.V, 0) {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = strconv.AppendFloat(e.b, m.V, 'g', -1, 64)
}

// float: a plain float64 as jsonv1 writes it where it writes it as 'f';
// exponents and non-finite numbers (an error) are its own.
func (e *lineEncoder) float(v float64) {
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) || math.IsNaN(v) || math.IsInf(v, 0) {
		e.any(v)
		return
	}
	e.b = strconv.AppendFloat(e.b, v, 'f', -1, 64)
}

// time: RFC 3339 with nanoseconds, as time.Time's MarshalJSON; years
// outside 0–9999 and offsets in seconds are jsonv1's to refuse or write.
func (e *lineEncoder) time(t time.Time) {
	if _, off := t.Zone(); t.Year() < 0 || t.Year() > 9999 || off%60 != 0 {
		e.any(t)
		return
	}
	e.b = append(t.AppendFormat(append(e.b, '"'), time.RFC3339Nano), '"')
}

func (e *lineEncoder) strings(ss []string) {
	for i, s := range ss {
		e.sep(i)
		e.str(s)
	}
	e.b = append(e.b, ']')
}

// ints appends key and the list unless it is empty (omitempty).
func (e *lineEncoder) ints(key string, ns []int) {
	if len(ns) == 0 {
		return
	}
	e.b = append(e.b, key...)
	for i, n := range ns {
		e.sep(i)
		e.b = strconv.AppendInt(e.b, int64(n), 10)
	}
	e.b = append(e.b, ']')
}

// sep opens a list before its first element and separates the others.
func (e *lineEncoder) sep(i int) {
	if i == 0 {
		e.b = append(e.b, '[')
	} else {
		e.b = append(e.b, ',')
	}
}

// end closes a list of n elements opened by sep ("[]" when empty).
func (e *lineEncoder) end(n int) {
	if n == 0 {
		e.b = append(e.b, '[')
	}
	e.b = append(e.b, ']')
}
