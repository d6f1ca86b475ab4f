package diagnose

import (
	"slices"
	"strconv"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// MaxSampleGap: a longer interval between two samples of a GPU is a pause
// (a stopped recorder, a stalled loop), not time spent in the state of the
// next sample; GPU time counts nothing across it.
const MaxSampleGap = time.Minute

// HolderKey is one job of one user, as HeldBy names it.
type HolderKey struct{ Kind, Job, User string }

// HeldTime is one holder's GPU time: held, and held weighted by the GPU's
// busy share (BusyShare: GPU-Util, SM activity on a MIG GPU). Held minus
// used is what the holder left idle.
type HeldTime struct {
	GPUs []int // by index, sorted
	// Held, Used and Unmeasured (held with no busy reading, counted in
	// Held, not in Used) are GPU-seconds.
	Held, Used, Unmeasured float64
	Seen                   time.Time // the newest sample counted
}

// Hours adds up each holder's GPU time sample by sample: `report`'s
// GPU-hours, `check --job`, the exporter's job counters and the GPU page
// all count it here. The zero value is ready.
type Hours struct {
	last map[string]time.Time // each GPU's previous sample, by UUID or index
	By   map[HolderKey]*HeldTime
}

// Add gives each GPU of s the interval since its previous sample, at most
// MaxSampleGap, to its holder.
func (h *Hours) Add(s *sampler.Snapshot) {
	if h.last == nil {
		h.last, h.By = map[string]time.Time{}, map[HolderKey]*HeldTime{}
	}
	for i := range s.GPUs {
		g := &s.GPUs[i]
		id := g.UUID
		if id == "" {
			id = strconv.Itoa(g.Index)
		}
		prev, seen := h.last[id]
		h.last[id] = s.Time
		dt := s.Time.Sub(prev)
		if !seen || dt <= 0 || dt > MaxSampleGap {
			continue
		}
		kind, job, user, ok := HeldBy(s, g)
		if !ok {
			continue
		}
		k := HolderKey{kind, job, user}
		t := h.By[k]
		if t == nil {
			t = &HeldTime{}
			h.By[k] = t
		}
		if i := slices.Index(t.GPUs, g.Index); i < 0 {
			t.GPUs = append(t.GPUs, g.Index)
			slices.Sort(t.GPUs)
		}
		sec := dt.Seconds()
		t.Held += sec
		if busy, ok := BusyShare(g); ok {
			t.Used += sec * min(max(busy, 0), 100) / 100
		} else {
			t.Unmeasured += sec
		}
		t.Seen = s.Time
	}
}
