package timeline

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/sampler/stat"
)

// SyncStat is one synchronising call and where it came from.
type SyncStat struct {
	Name    string  `json:"name"`
	Caller  string  `json:"caller,omitempty"` // the operator it ran inside (aten::item…); "" when none
	Count   int     `json:"count"`
	TotalUS float64 `json:"total_us"`
}

// Loader is the DataLoader's iterator on the rank.
type Loader struct {
	Name    string  `json:"name"`
	Count   int     `json:"count"`
	TotalUS float64 `json:"total_us"`
	// StepShare is its time inside ProfilerSteps over the steps' time
	// (percent); 0 without steps.
	StepShare float64 `json:"step_share"`
	// MainThread: _SingleProcessDataLoaderIter, i.e. num_workers=0: the
	// batches are made by the training loop's own thread.
	MainThread bool `json:"main_thread"`
}

// Copies are the memcpys by direction.
type Copies struct {
	H2DBytes int64   `json:"h2d_bytes"`
	D2HBytes int64   `json:"d2h_bytes"`
	H2DUS    float64 `json:"h2d_us"`
	D2HUS    float64 `json:"d2h_us"`
	// PageableBytes: host memory not pinned ("Pageable" in the copy's
	// name): the copy is staged and blocks the host.
	PageableBytes int64 `json:"pageable_bytes"`
}

// Step is one ProfilerStep.
type Step struct {
	Name  string  `json:"name"`
	DurUS float64 `json:"dur_us"`
}

func (b *Builder) syncStats() []SyncStat {
	callers := b.callers.of(b.syncs)
	by := map[[2]string]*SyncStat{}
	for i, s := range b.syncs {
		key := [2]string{b.names[s.name], ""}
		if c := callers[i]; c >= 0 {
			key[1] = b.names[c]
		}
		st := by[key]
		if st == nil {
			st = &SyncStat{Name: key[0], Caller: key[1]}
			by[key] = st
		}
		st.Count++
		st.TotalUS += s.end - s.ts
	}
	var out []SyncStat
	for _, s := range by {
		out = append(out, *s)
	}
	order := func(a, b *SyncStat) int {
		if c := cmp.Compare(b.TotalUS, a.TotalUS); c != 0 {
			return c
		}
		return cmp.Compare(a.Name+a.Caller, b.Name+b.Caller)
	}
	sort.Slice(out, func(i, j int) bool { return order(&out[i], &out[j]) < 0 })
	return out
}

// completeSteps are the ProfilerSteps HTA analyses: all but the last when
// there are two or more ([hta-docs] §Trace filtering).
func (b *Builder) completeSteps() []span {
	steps := slices.Clone(b.steps)
	slices.SortFunc(steps, func(a, b span) int { return cmp.Compare(a.ts, b.ts) })
	if len(steps) >= 2 {
		steps = steps[:len(steps)-1]
	}
	return steps
}

func (b *Builder) loader(steps []span) *Loader {
	if len(b.loaders) == 0 {
		return nil
	}
	l := &Loader{Name: b.names[b.loaders[0].name]}
	inSteps, stepUS := 0.0, 0.0
	for _, s := range steps {
		stepUS += s.end - s.ts
	}
	for _, d := range b.loaders {
		l.Count++
		l.TotalUS += d.end - d.ts
		l.MainThread = l.MainThread || strings.Contains(b.names[d.name], "_SingleProcessDataLoaderIter")
		for _, s := range steps {
			inSteps += max(0, min(d.end, s.end)-max(d.ts, s.ts))
		}
	}
	if stepUS > 0 {
		l.StepShare = 100 * inSteps / stepUS
	}
	return l
}

// add counts one memcpy of that name.
func (c *Copies) add(name string, g gpuEvent) {
	switch {
	case strings.HasPrefix(name, "Memcpy HtoD"):
		c.H2DBytes += g.bytes
		c.H2DUS += g.end - g.ts
	case strings.HasPrefix(name, "Memcpy DtoH"):
		c.D2HBytes += g.bytes
		c.D2HUS += g.end - g.ts
	default:
		return
	}
	if strings.Contains(name, "Pageable") {
		c.PageableBytes += g.bytes
	}
}

func (b *Builder) stepList(steps []span) ([]Step, float64) {
	out := make([]Step, 0, len(steps))
	durs := make([]float64, 0, len(steps))
	for _, s := range steps {
		out = append(out, Step{b.names[s.name], s.end - s.ts})
		durs = append(durs, s.end-s.ts)
	}
	if len(durs) == 0 {
		return out, 0
	}
	return out, stat.Percentile(durs, 50)
}
