package timeline

import (
	"cmp"
	"slices"
)

// held is a GPU event not yet counted: waiting for its launch, or for the
// step after its own to show it is not in the last one, which HTA leaves
// out ([hta-docs] §Trace filtering).
type held struct {
	g       gpuEvent
	corr    int64
	waiting bool // for its launch (pending holds its position)
}

// queue holds the GPU events in the order they were added until each is
// decided, and lets them go in that order: the figures that need no order
// then sum in the trace's own order, as a list of every event would. In a
// Kineto trace the launch follows its kernel within an event or two and
// the steps come before the GPU events (or, in the synthetic trace, before
// their own kernels), so the queue holds little more than the last step.
type queue struct {
	items []held
	head  int
	base  int64 // the absolute position of items[0]
}

// maxQueued bounds the queue: past it, the oldest event is let go undecided
// and counted (lateness.undecided), so memory stays bounded whatever the
// trace. A step of more kernels than this is the only way a real trace
// reaches it.
const maxQueued = 1 << 19

func (q *queue) next() int64 { return q.base + int64(len(q.items)) }

// at is the held event at absolute position i, nil once it has left.
func (q *queue) at(i int64) *held {
	j := i - q.base
	if j < int64(q.head) || j >= int64(len(q.items)) {
		return nil
	}
	return &q.items[j]
}

func (q *queue) pop() held {
	h := q.items[q.head]
	q.head++
	if q.head == len(q.items) {
		q.base += int64(len(q.items))
		q.items, q.head = q.items[:0], 0
	} else if q.head >= 4096 && q.head*2 >= len(q.items) {
		n := copy(q.items, q.items[q.head:])
		q.base += int64(q.head)
		q.items, q.head = q.items[:n], 0
	}
	return h
}

// filtering: two or more ProfilerSteps (by name) make HTA drop the last.
func (b *Builder) filtering() bool { return len(b.stepIDs) >= 2 }

// drain lets go the events at the queue's head that are decided; final
// (the trace has ended) decides all of them.
func (b *Builder) drain(final bool) {
	for b.queue.head < len(b.queue.items) {
		h := &b.queue.items[b.queue.head]
		over := len(b.queue.items)-b.queue.head > maxQueued
		undecided := false
		if h.waiting {
			if !final && !over {
				return
			}
			b.giveUp(h, final)
			undecided = !final
		}
		g := h.g
		on := b.filtering()
		switch {
		case final:
		case on && !g.launched: // dropped whatever comes: the filter never turns off
		case g.launched && len(b.steps) > 0 && g.lts < b.last: // kept whatever comes
		default:
			// In the last step so far, before any, or unlaunched without the
			// filter: a step still to come decides it (a trace may write a
			// step after its kernels).
			if !over {
				return
			}
			undecided = true
		}
		b.queue.pop()
		if undecided { // counted kept or dropped: a guess either way
			b.late.undecided++
			if g.launched {
				b.late.undecidedLTS = max(b.late.undecidedLTS, g.lts)
			} else {
				b.late.undecidedBare++
			}
		}
		if on && (!g.launched || (final && g.lts >= b.last)) {
			continue
		}
		b.take(g)
	}
}

// giveUp stops waiting for h's launch. At the trace's end none will come;
// before, it is counted undecided. A launch pushed out of the bounded
// launches (keepLaunch) makes its event's figures approximate.
func (b *Builder) giveUp(h *held, final bool) {
	h.waiting = false
	if final && h.corr <= b.evicted {
		b.late.joins++
	}
	if !final {
		b.gaveUp.put(h.corr, true)
	}
	idx := b.pending[h.corr]
	idx = slices.DeleteFunc(idx, func(i int64) bool { return b.queue.at(i) == h })
	if len(idx) == 0 {
		delete(b.pending, h.corr)
	} else {
		b.pending[h.corr] = idx
	}
}

// addStep keeps a ProfilerStep. One that begins before a kernel already
// counted was launched came too late to place it (lateness.steps).
func (b *Builder) addStep(s span) {
	b.steps = append(b.steps, s)
	b.stepIDs[s.name] = true
	if b.counted && s.ts <= b.maxLTS {
		b.late.steps++
	}
	b.last = max(b.last, s.ts)
	if len(b.steps) == 1 {
		b.last = s.ts
	}
	i, _ := slices.BinarySearchFunc(b.byStart, s.ts, func(x span, t float64) int { return cmp.Compare(x.ts, t) })
	for i < len(b.byStart) && b.byStart[i].ts == s.ts {
		i++ // after equal starts, as a stable sort of the trace's order puts it
	}
	b.byStart = insertSpan(b.byStart, i, s)
	b.drain(false)
}

// inStep says whether ts falls in a step: the one that begins last at or
// before it (causes.go, perStep).
func inStep(steps []span, ts float64) bool {
	i, found := slices.BinarySearchFunc(steps, ts, func(s span, t float64) int { return cmp.Compare(s.ts, t) })
	if found {
		return true
	}
	return i > 0 && ts < steps[i-1].end
}

// maxGaveUp bounds the correlation ids given up on before the trace's
// end: a launch that comes after is counted (lateness.joins) without a map
// of every id.
const maxGaveUp = 1 << 14
