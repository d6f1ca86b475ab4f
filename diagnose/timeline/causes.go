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

// gap reads the idle's causes in one gap between the merged busy
// intervals, which come in order: the loop over the gaps of HTA's
// breakdown, with the DataLoader's ranges and the syncs kept sorted as they
// come (addLoader, addSync) instead of sorted at the end.
func (b *Builder) gap(gap interval) {
	c := &b.causes
	lo := 0.0
	j, _ := slices.BinarySearchFunc(b.loaderIv, gap.start, func(v interval, t float64) int {
		if v.end <= t {
			return -1
		}
		return 1
	})
	for m := j; m < len(b.loaderIv) && b.loaderIv[m].start < gap.end; m++ {
		lo += min(b.loaderIv[m].end, gap.end) - max(b.loaderIv[m].start, gap.start)
	}
	c.DuringLoaderUS += lo
	k, _ := slices.BinarySearchFunc(b.syncEnds, gap.start, func(s span, t float64) int {
		if s.end < t {
			return -1
		}
		return 1
	})
	waited := false
	for m := k; m < len(b.syncEnds) && b.syncEnds[m].end <= gap.end; m++ {
		waited = waited || b.syncEnds[m].ts < gap.start
	}
	if waited {
		c.AfterSyncUS += gap.end - gap.start - lo
	}
	b.gapsTo = gap.end
}

// addLoader keeps a DataLoader range, and merged among the others for the
// gaps; one that began in a gap already read came too late for it.
func (b *Builder) addLoader(l span) {
	b.loaders = append(b.loaders, l)
	if l.ts < b.gapsTo {
		b.late.cpu++
	}
	v := interval{l.ts, l.end}
	iv := b.loaderIv
	i, _ := slices.BinarySearchFunc(iv, v.start, func(x interval, t float64) int { return cmp.Compare(x.start, t) })
	// v joins the one before if it starts within it, and swallows those
	// after that start within it: merge's union, kept as it grows.
	if i > 0 && v.start <= iv[i-1].end {
		i--
		v.start = iv[i].start
	}
	n := i
	for n < len(iv) && iv[n].start <= v.end {
		v.end = max(v.end, iv[n].end)
		n++
	}
	if n == i {
		iv = append(iv, interval{})
		copy(iv[i+1:], iv[i:])
	} else {
		iv = append(iv[:i+1], iv[n:]...)
	}
	iv[i] = v
	b.loaderIv = iv
}

// addSync keeps a sync call, and by end for the gaps; one that returned
// into a gap already read came too late for it.
func (b *Builder) addSync(s span) {
	b.syncs = append(b.syncs, s)
	if s.end <= b.gapsTo {
		b.late.cpu++
	}
	i, _ := slices.BinarySearchFunc(b.syncEnds, s.end, func(x span, t float64) int { return cmp.Compare(x.end, t) })
	b.syncEnds = insertSpan(b.syncEnds, i, s)
}

// stepAcc counts the kernels launched inside a step as they come, against
// the steps known then: in a Kineto trace they all come first.
type stepAcc struct {
	comp, stepComp float64
	kernels        int
}

func (a *stepAcc) add(b *Builder, g gpuEvent, cl class) {
	if g.kind != trace.Kernel {
		return
	}
	if cl.typ == Compute {
		a.comp += g.end - g.ts
	}
	if g.launched && inStep(b.byStart, g.lts) {
		a.kernels++
		if cl.typ == Compute {
			a.stepComp += g.end - g.ts
		}
	}
}

// perStep counts the syncs and kernels begun inside the complete steps.
func (c *Causes) perStep(b *Builder, steps []span) {
	c.ComputePerStepUS = b.perStep.comp
	if len(steps) == 0 {
		return
	}
	syncs := 0
	for _, s := range b.syncs {
		if inStep(steps, s.ts) {
			syncs++
		}
	}
	n := float64(len(steps))
	c.SyncsPerStep, c.KernelsPerStep, c.ComputePerStepUS = float64(syncs)/n, float64(b.perStep.kernels)/n, b.perStep.stepComp/n
}

// insertSpan is slices.Insert of one span, without a generic copy of it.
func insertSpan(s []span, i int, x span) []span {
	s = append(s, span{})
	copy(s[i+1:], s[i:])
	s[i] = x
	return s
}
