package promsource

import (
	"slices"
	"strconv"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// figureField is, by seriesNames' index, the gpuFields entry of each
// series the fleet's figures read (figureSeries), -1 for the others.
var figureField = func() []int {
	out := make([]int, len(seriesNames))
	for i, name := range seriesNames {
		out[i] = -1
		if r := seriesRoles[name]; figureSeries[name] && r.gpuField >= 0 {
			out[i] = r.gpuField
		}
	}
	return out
}()

// eachGPU calls f with each GPU of each kept scrape from from on, oldest
// first, as the snapshots rebuilt from the ring (snapshots, with
// figureSeries) hold it: the same fields, names preferred and scaled by
// the same tables (gpuFields, finishGPU), at the same millisecond. It
// builds no label map, stream or snapshot: a refresh of a thousand nodes
// reads an hour of each (docs/benchmarks.md, "`--nodes` over 1,000
// targets"). f's GPU is reused after it returns.
func (r *scrapeRing) eachGPU(from time.Time, scratch *gpuScratch, f func(at time.Time, g *sampler.GPU)) {
	if scratch == nil {
		scratch = &gpuScratch{}
	}
	scratch.reset(r.sets.len())
	gpuOfSet := func(i uint16) *setGPU {
		s := &scratch.sets[i]
		if s.read {
			return s
		}
		s.read, s.gpu = true, -1
		var gpu, mig string
		for _, p := range r.sets.setPairs(i) {
			switch name, value := pairLabel(r.sets.pairs[p]); name {
			case "gpu":
				gpu = value
			case "GPU_I_ID":
				mig = value
			case "modelName":
				s.model = value
			}
		}
		if idx, err := strconv.Atoi(gpu); err == nil && mig == "" { // gpuOf, isMIG
			s.gpu = idx
		}
		return s
	}
	inScrape := scratch.inScrape[:0]
	for _, s := range r.scrapes {
		if s.at.Before(from) {
			continue
		}
		inScrape = inScrape[:0]
		s.vals.each(func(i int, v float64) {
			ref := s.series[i]
			field := figureField[ref.name]
			if field < 0 {
				return
			}
			set := gpuOfSet(ref.set)
			if set.gpu < 0 {
				return
			}
			g := scratch.state(set.gpu)
			if !g.inScrape {
				g.inScrape = true
				g.at = gpuAt{g: sampler.GPU{Index: set.gpu}}
				for k := range g.ranks {
					g.ranks[k] = len(gpuFields[k].names) // none yet
				}
				inScrape = append(inScrape, set.gpu)
			}
			if g.at.g.Name == "" { // labelGPU
				g.at.g.Name = set.model
			}
			name := seriesNames[ref.name]
			fl := gpuFields[field]
			if rank := fl.rank(name); rank < g.ranks[field] {
				g.ranks[field] = rank
				*fl.field(&g.at) = sampler.Some(v * scaleOf(name))
			}
		})
		// The snapshot's time: the scrape's millisecond (historyBuilder's step).
		at := time.UnixMilli(s.at.UnixMilli())
		slices.Sort(inScrape)
		for _, idx := range inScrape {
			g := scratch.gpus[idx]
			finishGPU(&g.at, &g.prevXid, &g.prevTotal, at)
			f(at, &g.at.g)
			g.inScrape = false
		}
	}
	scratch.inScrape = inScrape
}

// gpuScratch is eachGPU's room, reused from one node to the next: a fleet
// refresh reads a thousand.
type gpuScratch struct {
	sets     []setGPU
	gpus     map[int]*gpuState
	free     []*gpuState
	inScrape []int
}

// setGPU is what a label set says of a GPU.
type setGPU struct {
	read  bool
	gpu   int // -1: not one physical GPU's series
	model string
}

// gpuState is one GPU's snapshot being assembled, and its Xid counters
// from the scrape before.
type gpuState struct {
	at                 gpuAt
	ranks              []int // by gpuFields' index: which name filled the field
	prevXid, prevTotal sampler.Metric
	inScrape           bool
}

func (s *gpuScratch) reset(sets int) {
	s.sets = slices.Grow(s.sets[:0], sets)[:sets]
	clear(s.sets)
	if s.gpus == nil {
		s.gpus = map[int]*gpuState{}
	}
	for _, g := range s.gpus {
		s.free = append(s.free, g)
	}
	clear(s.gpus)
}

func (s *gpuScratch) state(idx int) *gpuState {
	if g := s.gpus[idx]; g != nil {
		return g
	}
	var g *gpuState
	if n := len(s.free); n > 0 {
		g, s.free = s.free[n-1], s.free[:n-1]
		g.prevXid, g.prevTotal, g.inScrape = sampler.Metric{}, sampler.Metric{}, false
	} else {
		g = &gpuState{ranks: make([]int, len(gpuFields))}
	}
	s.gpus[idx] = g
	return g
}
