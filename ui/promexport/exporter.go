// Package promexport is `gpuscope serve`: it exposes what the sampler saw last
// and the diagnosis of it as Prometheus metrics (two name sets: dcgm-exporter
// compatible and gpuscope's own), plus the snapshot and findings as JSON.
//
// The sampling loop publishes each tick's snapshot and findings into a State;
// a scrape only reads that State, so it never calls NVML and any number of
// scrapes leaves what the sampler reads unchanged.
package promexport

import (
	"sync"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// Publisher is what a sampling loop feeds: one call per tick, oldest first.
// State implements it; so may a collector pipeline that fans ticks out.
type Publisher interface {
	Publish(snap sampler.Snapshot, findings []diagnose.Finding)
}

// State is the latest tick, plus the few counters that must see every tick
// (Xid events arrive once, in the snapshot after they happened). Safe for one
// publisher and many concurrent readers.
type State struct {
	mu       sync.RWMutex
	snap     sampler.Snapshot
	findings []diagnose.Finding
	ok       bool
	xids     map[string]*xidCount // by GPU UUID, else "#index"
	jobs     diagnose.Hours       // GPU time per job (jobs.go)
}

// xidCount is one GPU's Xid history as the two name sets need it.
type xidCount struct {
	total uint64 // gpuscope_gpu_xid_errors_total
	last  uint64 // DCGM_FI_DEV_XID_ERRORS: the value of the last Xid
}

// NewState returns an empty state: not ready until the first Publish.
func NewState() *State { return &State{xids: map[string]*xidCount{}} }

// Publish implements Publisher.
func (s *State) Publish(snap sampler.Snapshot, findings []diagnose.Finding) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snap, s.findings, s.ok = snap, findings, true
	s.countJobs(&snap)
	for i := range snap.GPUs {
		g := &snap.GPUs[i]
		if len(g.Xids) == 0 {
			continue
		}
		c := s.xids[gpuKey(g)]
		if c == nil {
			c = &xidCount{}
			s.xids[gpuKey(g)] = c
		}
		c.total += uint64(len(g.Xids))
		c.last = g.Xids[len(g.Xids)-1].Code
	}
}

// Latest returns the last published tick; ok is false before the first.
// The values are shared: callers must not modify them.
func (s *State) Latest() (snap sampler.Snapshot, findings []diagnose.Finding, ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.snap, s.findings, s.ok
}

// xidsOf returns a GPU's Xid count and last code (zero when none yet).
func (s *State) xidsOf(g *sampler.GPU) xidCount {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if c := s.xids[gpuKey(g)]; c != nil {
		return *c
	}
	return xidCount{}
}

func gpuKey(g *sampler.GPU) string {
	if g.UUID != "" {
		return g.UUID
	}
	return "#" + itoa(g.Index)
}
