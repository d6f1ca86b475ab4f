package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// Holder is who a GPU is allocated to: a batch scheduler's job (Slurm:
// GPU.Job and GPU.Owner) or a Kubernetes pod (GPU.Pod, its namespace as
// the owner). The scheduler's answer wins where both speak.
type Holder struct {
	Kind string `json:"kind"` // HolderSlurm or HolderPod
	ID   string `json:"id"`   // the job id, or "namespace/name" of the pod
	User string `json:"user,omitempty"`
}

// Holder kinds; HeldByProcess is HeldBy's for a GPU no scheduler
// allocated, held by its process's job.
const (
	HolderSlurm   = "slurm"
	HolderPod     = "pod"
	HeldByProcess = "process"
)

// HolderOf says who holds g; false for a GPU no scheduler allocated.
func HolderOf(g *sampler.GPU) (Holder, bool) {
	switch {
	case g.Job != "":
		return Holder{Kind: HolderSlurm, ID: g.Job, User: g.Owner}, true
	case g.Pod.Name != "":
		return Holder{Kind: HolderPod, ID: g.Pod.Namespace + "/" + g.Pod.Name, User: g.Pod.Namespace}, true
	}
	return Holder{}, false
}

// words names the holder in a finding ("Slurm job 4242017 of frank",
// "pod inference/vllm-7c9").
func (h Holder) words() Msg {
	if h.Kind == HolderPod {
		return say("holder.pod", "pod {{.Pod}}", "Pod", h.ID)
	}
	if h.User == "" {
		return say("holder.job", "Slurm job {{.Job}}", "Job", h.ID)
	}
	return say("holder.job_user", "Slurm job {{.Job}} of {{.User}}", "Job", h.ID, "User", h.User)
}

// hasProcess: a process runs on g or on one of its MIG instances.
func hasProcess(g *sampler.GPU) bool {
	if len(g.Procs) > 0 {
		return true
	}
	for i := range g.MIGDevices {
		if len(g.MIGDevices[i].Procs) > 0 {
			return true
		}
	}
	return false
}

// HeldBy names who holds g for GPU-hours: the scheduler's job or pod
// (HolderOf), else the job of the process holding the most memory
// (Job's key, as the energy by job names it, with the process's user);
// false for a free GPU.
func HeldBy(s *sampler.Snapshot, g *sampler.GPU) (kind, job, user string, ok bool) {
	if hd, ok := HolderOf(g); ok {
		return hd.Kind, hd.ID, hd.User, true
	}
	var main *sampler.GPUProc
	for i := range g.Procs {
		if main == nil || g.Procs[i].MemUsed.Or(0) > main.MemUsed.Or(0) {
			main = &g.Procs[i]
		}
	}
	if main == nil {
		return "", "", "", false
	}
	j := Job{PID: main.PID}
	if hp := hostProc(s, main, main.PID); hp != nil {
		user = hp.User
		if ppid := JobParent(s.Host, hp); ppid > 0 {
			j = Job{PPID: ppid}
			if parent := s.Host.Procs[ppid]; parent != nil {
				j.Parent = parent.Name
			}
		}
	}
	return HeldByProcess, j.Key(), user, true
}
