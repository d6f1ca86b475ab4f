package summary

import (
	"slices"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// JobEnergy is the energy one job of one user drew: the job as the
// dashboard and the diagnosis group ranks (diagnose.Job's key: the
// launcher that started them, or the one process).
type JobEnergy struct {
	Job     string  `json:"job"`               // "torchrun, PPID 2000" or "PID 2100"
	Command string  `json:"command,omitempty"` // the process's name, for a one-process job
	User    string  `json:"user,omitempty"`    // "" when the input has no host data
	GPUs    []int   `json:"gpus"`
	KWh     float64 `json:"kwh"`
}

// UserEnergy is the energy of every job of one user.
type UserEnergy struct {
	User string  `json:"user"`
	KWh  float64 `json:"kwh"`
}

// jobEnergy shares each sample's energy among the GPU's processes: by their
// SM share when NVML gave one for each, else evenly (a MIG slice or an
// imported log says nothing finer). A GPU without processes is idle.
type jobEnergy struct {
	byKey map[string]*JobEnergy
	idleJ float64
}

func (e *jobEnergy) add(s *sampler.Snapshot, g *sampler.GPU, joules float64) {
	if joules <= 0 {
		return
	}
	if len(g.Procs) == 0 {
		e.idleJ += joules
		return
	}
	bySM, sum := true, 0.0
	for _, p := range g.Procs {
		bySM = bySM && p.SMUtil.OK
		sum += p.SMUtil.V
	}
	for i, p := range g.Procs {
		share := 1 / float64(len(g.Procs))
		if bySM && sum > 0 {
			share = p.SMUtil.V / sum
		}
		e.job(s, &g.Procs[i], g.Index).KWh += joules * share / joulesPerKWh
	}
}

// job finds or starts the entry of p's job and user.
func (e *jobEnergy) job(s *sampler.Snapshot, p *sampler.GPUProc, gpu int) *JobEnergy {
	j, user, command := diagnose.Job{PID: p.PID}, "", ""
	hp := p.Host
	if hp == nil && s.Host != nil {
		hp = s.Host.Procs[p.PID] // a recording read back: not joined (sampler.JoinProcs)
	}
	if hp != nil {
		user, command = hp.User, hp.Name
		if ppid := diagnose.JobParent(s.Host, hp); ppid > 0 {
			j = diagnose.Job{PPID: ppid}
			if parent := s.Host.Procs[ppid]; parent != nil {
				j.Parent = parent.Name
			}
		}
	}
	key := j.Key() + "\x00" + user
	if e.byKey == nil {
		e.byKey = map[string]*JobEnergy{}
	}
	je := e.byKey[key]
	if je == nil {
		je = &JobEnergy{Job: j.Key(), User: user}
		if j.PPID == 0 {
			je.Command = command
		}
		e.byKey[key] = je
	}
	if !slices.Contains(je.GPUs, gpu) {
		je.GPUs = append(je.GPUs, gpu)
	}
	return je
}

// finish puts the jobs, largest first, and their users into t.
func (e *jobEnergy) finish(t *EnergyTotal) {
	if t == nil {
		return
	}
	t.IdleKWh = e.idleJ / joulesPerKWh
	for _, j := range e.byKey {
		slices.Sort(j.GPUs)
		t.Jobs = append(t.Jobs, *j)
	}
	byJob := func(a, b *JobEnergy) int {
		if a.KWh != b.KWh {
			return cmpDesc(a.KWh, b.KWh)
		}
		return strings.Compare(a.Job+a.User, b.Job+b.User)
	}
	sort.Slice(t.Jobs, func(i, j int) bool { return byJob(&t.Jobs[i], &t.Jobs[j]) < 0 })
	// A user's jobs summed in the jobs' order, not the map's: a float sum's
	// last digit depends on its order, and a report must not change from
	// one run to the next (as the GPU-hours totals, gpuhours.go).
	users := map[string]float64{}
	for _, j := range t.Jobs {
		users[j.User] += j.KWh
	}
	for u, kwh := range users {
		if u != "" {
			t.Users = append(t.Users, UserEnergy{User: u, KWh: kwh})
		}
	}
	byUser := func(a, b *UserEnergy) int {
		if a.KWh != b.KWh {
			return cmpDesc(a.KWh, b.KWh)
		}
		return strings.Compare(a.User, b.User)
	}
	sort.Slice(t.Users, func(i, j int) bool { return byUser(&t.Users[i], &t.Users[j]) < 0 })
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}
