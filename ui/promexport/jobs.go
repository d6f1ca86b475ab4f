package promexport

import (
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// jobForget: a job not seen for this long is dropped, so ended jobs do not
// pile up series.
const jobForget = time.Hour

// countJobs adds the interval since each GPU's previous snapshot to its
// holder (diagnose.Hours, as `report`'s GPU-hours) and forgets jobs long
// gone. Called by Publish with s.mu held.
func (s *State) countJobs(snap *sampler.Snapshot) {
	s.jobs.Add(snap)
	for k, t := range s.jobs.By {
		if snap.Time.Sub(t.Seen) > jobForget {
			delete(s.jobs.By, k)
		}
	}
}

// jobTimes is a copy of the counters (GPU-seconds), for a scrape.
func (s *State) jobTimes() map[diagnose.HolderKey]diagnose.HeldTime {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[diagnose.HolderKey]diagnose.HeldTime, len(s.jobs.By))
	for k, t := range s.jobs.By {
		out[k] = *t
	}
	return out
}
