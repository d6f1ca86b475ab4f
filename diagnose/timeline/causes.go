package timeline

import (
	"cmp"
	"slices"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

// Causes are the figures that tell the GPU's idle causes apart: what the
// host was doing while nothing ran. Each idle gap (between the merged busy
// intervals, [hta-docs] §Temporal breakdown) is split between the
// DataLoader, when its iterator ran during the gap, and a host sync, when
// one began while the GPU was still busy and returned into the gap: the
// host waited for the queue to drain and then had nothing queued behind it
// ([nsight-systems] synchronisation APIs; [pytorch-cuda-notes]).
type Causes struct {
	// DuringLoaderUS is GPU idle time while the DataLoader's iterator ran.
	DuringLoaderUS float64 `json:"idle_during_dataloader_us"`
	// AfterSyncUS is the rest of the gaps a waiting sync returned into.
	AfterSyncUS float64 `json:"idle_after_sync_us"`
	// SyncsPerStep and KernelsPerStep count what began inside the
	// complete ProfilerSteps, per step; 0 without steps.
	SyncsPerStep   float64 `json:"syncs_per_step"`
	KernelsPerStep float64 `json:"kernels_per_step"`
	// ComputePerStepUS is the computation kernels' time per step, or the
	// whole trace's without steps: what a straggler has more of.
	ComputePerStepUS float64 `json:"compute_per_step_us"`
}

func (b *Builder) causes(gpu []gpuEvent, busy []interval, steps []span) Causes {
	var c Causes
	var loaders []interval
	for _, l := range b.loaders {
		loaders = append(loaders, interval{l.ts, l.end})
	}
	loaders = merge(loaders)
	syncs := slices.Clone(b.syncs)
	slices.SortFunc(syncs, func(a, b span) int { return cmp.Compare(a.end, b.end) })
	j, k := 0, 0
	for i := 1; i < len(busy); i++ {
		gap := interval{busy[i-1].end, busy[i].start}
		lo := 0.0
		for j < len(loaders) && loaders[j].end <= gap.start {
			j++
		}
		for m := j; m < len(loaders) && loaders[m].start < gap.end; m++ {
			lo += min(loaders[m].end, gap.end) - max(loaders[m].start, gap.start)
		}
		c.DuringLoaderUS += lo
		for k < len(syncs) && syncs[k].end < gap.start {
			k++
		}
		waited := false
		for m := k; m < len(syncs) && syncs[m].end <= gap.end; m++ {
			waited = waited || syncs[m].ts < gap.start
		}
		if waited {
			c.AfterSyncUS += gap.end - gap.start - lo
		}
	}
	c.perStep(b, gpu, steps)
	return c
}

// perStep counts the syncs and kernels begun inside the complete steps.
func (c *Causes) perStep(b *Builder, gpu []gpuEvent, steps []span) {
	comp := 0.0
	for _, g := range gpu {
		if g.kind == trace.Kernel && b.classOf(g.name).typ == Compute {
			comp += g.end - g.ts
		}
	}
	c.ComputePerStepUS = comp
	if len(steps) == 0 {
		return
	}
	inStep := func(ts float64) bool {
		i, found := slices.BinarySearchFunc(steps, ts, func(s span, t float64) int { return cmp.Compare(s.ts, t) })
		if found {
			return true
		}
		return i > 0 && ts < steps[i-1].end
	}
	syncs, kernels, stepComp := 0, 0, 0.0
	for _, s := range b.syncs {
		if inStep(s.ts) {
			syncs++
		}
	}
	for _, g := range gpu {
		if g.launched && g.kind == trace.Kernel && inStep(g.lts) {
			kernels++
			if b.classOf(g.name).typ == Compute {
				stepComp += g.end - g.ts
			}
		}
	}
	n := float64(len(steps))
	c.SyncsPerStep, c.KernelsPerStep, c.ComputePerStepUS = float64(syncs)/n, float64(kernels)/n, stepComp/n
}
