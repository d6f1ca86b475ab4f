package promexport

import (
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// Bounds of the per-job counters: an interval longer than jobMaxGap (a
// stalled loop) counts nothing, as the report's maxSampleGap; a job not
// seen for jobForget is dropped, so ended jobs do not pile up series.
const (
	jobMaxGap = time.Minute
	jobForget = time.Hour
)

// jobKey is one job of one user, as HeldBy names it.
type jobKey struct{ kind, job, user string }

// jobTime is a job's GPU time since serve started, in GPU-seconds: held,
// and held weighted by busy (diagnose.BusyShare), as `report`'s GPU-hours.
type jobTime struct {
	held, used float64
	seen       time.Time
}

// countJobs adds the interval since each GPU's previous snapshot to its
// holder. Called by Publish with s.mu held.
func (s *State) countJobs(snap *sampler.Snapshot) {
	if s.jobs == nil {
		s.jobs, s.gpuSeen = map[jobKey]*jobTime{}, map[string]time.Time{}
	}
	for i := range snap.GPUs {
		g := &snap.GPUs[i]
		prev, ok := s.gpuSeen[gpuKey(g)]
		s.gpuSeen[gpuKey(g)] = snap.Time
		dt := snap.Time.Sub(prev).Seconds()
		if !ok || dt <= 0 || dt > jobMaxGap.Seconds() {
			continue
		}
		kind, job, user, held := diagnose.HeldBy(snap, g)
		if !held {
			continue
		}
		k := jobKey{kind, job, user}
		t := s.jobs[k]
		if t == nil {
			t = &jobTime{}
			s.jobs[k] = t
		}
		t.held += dt
		if busy, ok := diagnose.BusyShare(g); ok {
			t.used += dt * min(max(busy, 0), 100) / 100
		}
		t.seen = snap.Time
	}
	for k, t := range s.jobs {
		if snap.Time.Sub(t.seen) > jobForget {
			delete(s.jobs, k)
		}
	}
}

// jobTimes is a copy of the counters, for a scrape.
func (s *State) jobTimes() map[jobKey]jobTime {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[jobKey]jobTime, len(s.jobs))
	for k, t := range s.jobs {
		out[k] = *t
	}
	return out
}
