package summary

import (
	"slices"
	"sort"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// GPUHours is the GPU time each job and user held over the report, and
// how much of it they used: held is the time a GPU was allocated to the
// job (a Slurm job or a pod) or, off a scheduler, had the job's process
// on it; used is held weighted by the GPU's busy share
// (diagnose.BusyShare: GPU-Util, SM activity on a MIG GPU, as the GPU
// pane's balance). Held minus used is what the holder wasted.
type GPUHours struct {
	Held float64 `json:"held_gpu_hours"`
	Used float64 `json:"used_gpu_hours"`
	// Unmeasured is held time with no busy reading (counted in Held, not
	// in Used).
	Unmeasured float64     `json:"unmeasured_gpu_hours,omitempty"`
	Jobs       []JobHours  `json:"jobs"`
	Users      []UserHours `json:"users,omitempty"`
}

// JobHours is one job's GPU time.
type JobHours struct {
	// Kind is "slurm", "pod" or "process" (a launcher's ranks or one
	// process, as the energy by job names it: diagnose.Job's key).
	Kind string  `json:"kind"`
	Job  string  `json:"job"`
	User string  `json:"user,omitempty"`
	GPUs []int   `json:"gpus"`
	Held float64 `json:"held_gpu_hours"`
	Used float64 `json:"used_gpu_hours"`
}

// UserHours is every job of one user.
type UserHours struct {
	User string  `json:"user"`
	Held float64 `json:"held_gpu_hours"`
	Used float64 `json:"used_gpu_hours"`
}

// HeldByProcess is the kind of a job no scheduler named (diagnose.HeldBy).
const HeldByProcess = diagnose.HeldByProcess

// hoursAcc adds up GPUHours sample by sample.
type hoursAcc struct {
	last  map[int]time.Time // each GPU's previous sample
	byKey map[string]*JobHours
	unm   float64
}

// add takes GPU g of snapshot s: the interval since g's previous sample
// (no more than maxSampleGap, as the energy) goes to its holder.
func (h *hoursAcc) add(s *sampler.Snapshot, g *sampler.GPU) {
	if h.last == nil {
		h.last, h.byKey = map[int]time.Time{}, map[string]*JobHours{}
	}
	prev, seen := h.last[g.Index]
	h.last[g.Index] = s.Time
	dt := s.Time.Sub(prev)
	if !seen || dt <= 0 || dt > maxSampleGap {
		return
	}
	kind, job, user, ok := diagnose.HeldBy(s, g)
	if !ok {
		return
	}
	key := kind + "\x00" + job + "\x00" + user
	jh := h.byKey[key]
	if jh == nil {
		jh = &JobHours{Kind: kind, Job: job, User: user}
		h.byKey[key] = jh
	}
	if !slices.Contains(jh.GPUs, g.Index) {
		jh.GPUs = append(jh.GPUs, g.Index)
	}
	hours := dt.Hours()
	jh.Held += hours
	if busy, ok := diagnose.BusyShare(g); ok {
		jh.Used += hours * min(max(busy, 0), 100) / 100
	} else {
		h.unm += hours
	}
}

// finish is the totals, jobs by GPU-hours held, and users; nil when no
// GPU was held.
func (h *hoursAcc) finish() *GPUHours {
	if len(h.byKey) == 0 {
		return nil
	}
	t := &GPUHours{Unmeasured: h.unm}
	users := map[string]*UserHours{}
	for _, j := range h.byKey {
		slices.Sort(j.GPUs)
		t.Jobs = append(t.Jobs, *j)
		t.Held += j.Held
		t.Used += j.Used
		if j.User == "" {
			continue
		}
		u := users[j.User]
		if u == nil {
			u = &UserHours{User: j.User}
			users[j.User] = u
		}
		u.Held += j.Held
		u.Used += j.Used
	}
	sort.Slice(t.Jobs, func(i, k int) bool {
		a, b := &t.Jobs[i], &t.Jobs[k]
		if a.Held != b.Held {
			return a.Held > b.Held
		}
		return a.Kind+a.Job+a.User < b.Kind+b.Job+b.User
	})
	for _, u := range users {
		t.Users = append(t.Users, *u)
	}
	sort.Slice(t.Users, func(i, k int) bool {
		a, b := &t.Users[i], &t.Users[k]
		if a.Held != b.Held {
			return a.Held > b.Held
		}
		return a.User < b.User
	})
	return t
}

// Hours counts GPUHours over snapshots given one by one, for a verdict
// that is not a report (check --job).
type Hours struct{ acc hoursAcc }

// Add counts every GPU of s.
func (h *Hours) Add(s *sampler.Snapshot) {
	for i := range s.GPUs {
		h.acc.add(s, &s.GPUs[i])
	}
}

// Result is what was counted; nil when no GPU was held. Call it once.
func (h *Hours) Result() *GPUHours { return h.acc.finish() }
