package importer

import (
	"strconv"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// `nvidia-smi -q` text: "Key : value" lines nested by indentation under
// headings ("FB Memory Usage", "Clocks Event Reasons" ...), one "GPU <bus
// id>" block per device, after a header with Timestamp / Driver Version /
// CUDA Version. A -d selection prints a subset of the same keys; a -q -l
// loop repeats the whole, one Timestamp per block. Keys are matched by their
// full path from the GPU heading, lower-cased, so a key of the same name
// in a nested block (a MIG device's memory) is not mistaken for the GPU's.

// qState reads one -q section.
type qState struct {
	p        *part
	loc      *time.Location
	cur      *sampler.Snapshot
	gpu      *sampler.GPU
	proc     *sampler.GPUProc
	vgpu     *qVGPU // a vGPU block of `nvidia-smi vgpu -q` being read
	stack    []qHead
	block    int // GPU blocks read in the current snapshot
	attached int // the header's "Attached GPUs" (smiq_notes.go)
}

type qHead struct {
	indent int
	name   string
}

func parseQuery(sec *section, loc *time.Location) *part {
	if loc == nil {
		loc = time.UTC
	}
	q := &qState{p: newPart(sec), loc: loc}
	if joinedQuery(sec.lines) {
		return q.p.skip(joinedQueryWhy)
	}
	for i, l := range sec.lines {
		q.line(l, sec.first+i)
	}
	q.endGPU()
	if q.cur != nil {
		q.p.snaps = append(q.p.snaps, *q.cur)
	}
	p := q.p
	if len(p.snaps) == 0 {
		return p.skip("no GPU block")
	}
	n := 0
	for _, s := range p.snaps {
		n = max(n, len(s.GPUs))
	}
	if n == 0 {
		return p.skip(q.noGPUBlock())
	}
	note := countGPUs(n)
	if p.snaps[0].Node.Driver != "" {
		note += ", driver " + p.snaps[0].Node.Driver
	}
	p.note(note + q.qTail(n))
	return p
}

// Out of line: inlined at its many call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func (q *qState) snapshot() *sampler.Snapshot {
	if q.cur == nil {
		q.cur = &sampler.Snapshot{}
	}
	return q.cur
}

func (q *qState) line(l string, no int) {
	t := strings.TrimSpace(l)
	if t == "" || isElision(t) || strings.Contains(t, "[...]") {
		return
	}
	indent := len(l) - len(strings.TrimLeft(l, " "))
	if strings.Contains(t, "NVSMI LOG") {
		q.newSnapshot()
		return
	}
	for len(q.stack) > 0 && q.stack[len(q.stack)-1].indent >= indent {
		q.stack = q.stack[:len(q.stack)-1]
	}
	key, val, ok := splitQ(t)
	if !ok {
		if indent == 0 && strings.HasPrefix(t, "GPU ") && tblBusRE.MatchString(t) {
			q.newGPU(tblBusRE.FindString(t), no)
			return
		}
		q.stack = append(q.stack, qHead{indent, strings.ToLower(t)})
		return
	}
	lk := strings.ToLower(key)
	if indent == 0 {
		q.top(lk, val, no)
		return
	}
	if q.gpu == nil {
		if q.p.snaps != nil || (q.cur != nil && len(q.cur.GPUs) > 0) {
			return
		}
		// A fragment without its "GPU <bus id>" heading: one GPU.
		q.gpu = &sampler.GPU{Index: 0}
		q.p.note("a fragment without its GPU heading, read as GPU 0")
	}
	if q.vgpuLine(lk, val, indent, no) {
		return
	}
	path := make([]string, 0, len(q.stack)+1)
	for _, h := range q.stack {
		path = append(path, h.name)
	}
	q.field(strings.Join(append(path, lk), "/"), val, no)
}

// splitQ splits "Key   : value"; headings have no " : ".
func splitQ(t string) (key, val string, ok bool) {
	if i := strings.Index(t, " : "); i >= 0 {
		return strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+3:]), true
	}
	if strings.HasSuffix(t, " :") {
		return strings.TrimSpace(strings.TrimSuffix(t, ":")), "", true
	}
	return "", "", false
}

func (q *qState) newSnapshot() {
	q.endGPU()
	if q.cur != nil && len(q.cur.GPUs) > 0 {
		q.p.snaps = append(q.p.snaps, *q.cur)
		q.cur = nil
	}
	q.stack, q.block = nil, 0
}

func (q *qState) top(key, val string, no int) {
	switch key {
	case "timestamp":
		if q.cur != nil && (len(q.cur.GPUs) > 0 || q.gpu != nil || !q.cur.Time.IsZero()) {
			q.newSnapshot()
		}
		if ts, err := parseTime(val, q.loc); err == nil {
			q.snapshot().Time = ts
			q.p.timed = true
			q.p.where(-1, "time", no)
		}
	case "driver version":
		q.snapshot().Node.Driver = val
	case "cuda version":
		q.snapshot().Node.CUDA = val
	case "attached gpus":
		q.attached, _ = strconv.Atoi(val)
	}
}

func (q *qState) newGPU(bus string, no int) {
	q.endGPU()
	s := q.snapshot()
	idx := len(s.GPUs)
	if q.gpu == nil && q.block == 0 {
		idx = 0
	}
	q.gpu = &sampler.GPU{Index: idx, BusID: bus}
	q.block++
	q.p.where(idx, "bus_id", no)
}

func (q *qState) endGPU() {
	q.endProc()
	q.endVGPU()
	if q.gpu != nil {
		s := q.snapshot()
		s.GPUs = append(s.GPUs, *q.gpu)
		q.gpu = nil
	}
}

func (q *qState) endVGPU() {
	if q.vgpu != nil && q.gpu != nil {
		q.gpu.VGPUs = append(q.gpu.VGPUs, q.vgpu.v)
	}
	q.vgpu = nil
}

// Out of line: inlined at its call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func (q *qState) endProc() {
	if q.proc != nil && q.gpu != nil {
		q.gpu.Procs = append(q.gpu.Procs, *q.proc)
		q.p.procsListed = true
	}
	q.proc = nil
}
