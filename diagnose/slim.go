package diagnose

import (
	"slices"
	"sort"

	"github.com/gpuscope/gpuscope/sampler"
)

// What the window keeps of a snapshot's host once the rules have seen it
// as the newest. The rules read the older snapshots' hosts only for their
// scalar figures (hostMean, hostFrac) and each process's CPU and state
// (procs.go); the whole reading, every process with its command line, pod
// and children, and every core's figure, was a third of the dashboard's
// live heap (docs/benchmarks.md, "The diagnosis window: hosts kept as
// figures"). Snapshots are shared and read-only, so the window holds a
// slim copy: the Host's scalars, no Procs, no CPUs, and the processes'
// figures beside it (procRows). The GPUs are kept as they are: the
// columns point into them (column.go), and their processes' joined host
// views stay with them.

// procRow is one host process as the rules read it in an older snapshot.
type procRow struct {
	_     [0]func() // not comparable: no equality function in the binary
	pid   int
	state string
	cpu   sampler.Metric
}

// procRows are a host's processes by PID, sorted; nil: the host had no
// process table (a source without one), which the rules tell apart from
// an empty one.
type procRows []procRow

func (r procRows) find(pid int) *procRow {
	i := sort.Search(len(r), func(i int) bool { return r[i].pid >= pid })
	if i == len(r) || r[i].pid != pid {
		return nil
	}
	return &r[i]
}

// slimHost is h as the window keeps it: its scalars, and its processes'
// figures. The PIDs are sorted as ints and the rows filled in their
// order: sort.Slice's swaps through reflection were most of slimming
// (docs/benchmarks.md, "Recording a day: the diagnosis's context
// carried"), and slices.SortFunc on the rows a generic sort of its own,
// 10 KB of binary, where the ints' is linked already.
func slimHost(h *sampler.Host) (*sampler.Host, procRows) {
	if h == nil {
		return nil, nil
	}
	s := h.Scalars()
	if h.Procs == nil {
		return s, nil
	}
	pids := make([]int, 0, len(h.Procs))
	for pid, p := range h.Procs {
		if p != nil {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	rows := make(procRows, len(pids))
	for i, pid := range pids {
		p := h.Procs[pid]
		rows[i] = procRow{pid: pid, state: p.State, cpu: p.CPU}
	}
	return s, rows
}

// slimmer keeps the last host it slimmed: a host reading shared by several
// snapshots (sampled less often than the GPUs) stays one.
type slimmer struct {
	from, to *sampler.Host
	rows     procRows
}

func (m *slimmer) slim(h *sampler.Host) (*sampler.Host, procRows) {
	if h != m.from {
		m.from = h
		m.to, m.rows = slimHost(h)
	}
	return m.to, m.rows
}

// procAt is pid's host view in w[i], where the window kept only the
// figures of w[i]'s host (rows); gp is pid's process on the GPU there, if
// any. ok is false where the snapshot has no such process.
func (c *ctx) procAt(i int, gp *sampler.GPUProc, pid int) (cpu sampler.Metric, state string, ok bool) {
	if hp := hostProc(&c.w[i], gp, pid); hp != nil {
		return hp.CPU, hp.State, true
	}
	if i < len(c.rows) {
		if r := c.rows[i].find(pid); r != nil {
			return r.cpu, r.state, true
		}
	}
	return sampler.Metric{}, "", false
}

// hasProcs says whether w[i]'s host has a process table, whole or kept
// as figures.
func (c *ctx) hasProcs(i int) bool {
	h := c.w[i].Host
	return h != nil && (h.Procs != nil || i < len(c.rows) && c.rows[i] != nil)
}
