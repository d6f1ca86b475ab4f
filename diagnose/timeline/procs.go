package timeline

import (
	"cmp"
	"slices"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// Procs is one trace file's events split by process: an nsys export of a
// multi-process run (torchrun, one process per GPU) holds every rank, and
// each process is analysed as a rank of its own, as a directory of Kineto
// traces is. Correlation ids are per process (CUPTI numbers each
// process's calls), so launches are joined to kernels within a process
// only. A Kineto trace is one process (trace.Event.Proc 0): one Builder.
type Procs struct {
	by map[int64]*Builder
}

// NewProcs is an empty split.
func NewProcs() *Procs { return &Procs{by: map[int64]*Builder{}} }

// Add takes one event of the file, in any order.
func (p *Procs) Add(e trace.Event) error {
	b := p.by[e.Proc]
	if b == nil {
		b = New()
		p.by[e.Proc] = b
	}
	return b.Add(e)
}

// Ranks are the file's ranks: its one process with the trace's own rank;
// or, for several, the processes that ran GPU work (a launcher with only
// CPU ranges is none), numbered in the order of their GPU, then process
// id, which is torchrun's local rank where each rank drives cuda:LOCAL_RANK.
func (p *Procs) Ranks(meta trace.Meta) []Rank {
	var procs []int64
	for proc, b := range p.by {
		if b.gpuSeen > 0 || len(p.by) == 1 {
			procs = append(procs, proc)
		}
	}
	if len(procs) == 1 {
		r := p.by[procs[0]].Rank(meta)
		r.Proc = procs[0]
		return []Rank{r}
	}
	slices.SortFunc(procs, func(a, b int64) int {
		return cmp.Or(cmp.Compare(p.by[a].mainDevice(), p.by[b].mainDevice()), cmp.Compare(a, b))
	})
	out := make([]Rank, len(procs))
	for i, proc := range procs {
		out[i] = p.by[proc].Rank(meta)
		out[i].Rank, out[i].Proc = i, proc
	}
	return out
}
