package summary

import (
	"slices"
	"sort"

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
	// unmeasured is summed into GPUHours.Unmeasured.
	unmeasured float64
}

// UserHours is every job of one user.
type UserHours struct {
	User string  `json:"user"`
	Held float64 `json:"held_gpu_hours"`
	Used float64 `json:"used_gpu_hours"`
}

// HeldByProcess is the kind of a job no scheduler named (diagnose.HeldBy).
const HeldByProcess = diagnose.HeldByProcess

// gpuHours is what h counted as GPU-hours: the totals, jobs by GPU-hours
// held, and users; nil when no GPU was held.
func gpuHours(h *diagnose.Hours) *GPUHours {
	if len(h.By) == 0 {
		return nil
	}
	t := &GPUHours{}
	for k, ht := range h.By {
		t.Jobs = append(t.Jobs, JobHours{Kind: k.Kind, Job: k.Job, User: k.User, GPUs: slices.Clone(ht.GPUs),
			Held: ht.Held / 3600, Used: ht.Used / 3600, unmeasured: ht.Unmeasured / 3600})
	}
	sort.Slice(t.Jobs, func(i, k int) bool {
		a, b := &t.Jobs[i], &t.Jobs[k]
		if a.Held != b.Held {
			return a.Held > b.Held
		}
		return a.Kind+a.Job+a.User < b.Kind+b.Job+b.User
	})
	// Summed in the jobs' order, not the map's: float addition is not
	// associative, and the totals' last digit changed from run to run.
	users := map[string]*UserHours{}
	for _, j := range t.Jobs {
		t.Held += j.Held
		t.Used += j.Used
		t.Unmeasured += j.unmeasured
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
	for i := range t.Jobs { // summed: a footer's state keeps none (footer.go)
		t.Jobs[i].unmeasured = 0
	}
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
type Hours struct{ acc diagnose.Hours }

// Add counts every GPU of s.
func (h *Hours) Add(s *sampler.Snapshot) { h.acc.Add(s) }

// Result is what was counted; nil when no GPU was held.
func (h *Hours) Result() *GPUHours { return gpuHours(&h.acc) }
