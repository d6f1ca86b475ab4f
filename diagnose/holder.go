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
func HolderOf(g *sampler.GPU) (Holder, bool) { return holderOf(g.Job, g.Owner, &g.Pod) }

func holderOf(job, owner string, pod *sampler.Pod) (Holder, bool) {
	switch {
	case job != "":
		return Holder{Kind: HolderSlurm, ID: job, User: owner}, true
	case pod.Name != "":
		return Holder{Kind: HolderPod, ID: pod.Namespace + "/" + pod.Name, User: pod.Namespace}, true
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
	h, ok := holdingOf(s, g)
	if !ok {
		return "", "", "", false
	}
	kind, job, user = h.names()
	return kind, job, user, true
}

// holding is what HeldBy's answer follows from, before any text is made:
// Hours formats the names only when a GPU's holding changed, where making
// them for every GPU of every sample was a sixth of the summary's own CPU
// on a day's report (docs/benchmarks.md, "Recordings: the scanner's own
// cost").
type holding struct {
	job, owner   string      // the scheduler's, where it speaks
	pod          sampler.Pod // Container left out
	pid, ppid    int         // the process's job (Job)
	parent, user string
}

func holdingOf(s *sampler.Snapshot, g *sampler.GPU) (holding, bool) {
	if g.Job != "" || g.Pod.Name != "" {
		return holding{job: g.Job, owner: g.Owner, pod: sampler.Pod{Namespace: g.Pod.Namespace, Name: g.Pod.Name}}, true
	}
	var main *sampler.GPUProc
	for i := range g.Procs {
		if main == nil || g.Procs[i].MemUsed.Or(0) > main.MemUsed.Or(0) {
			main = &g.Procs[i]
		}
	}
	if main == nil {
		return holding{}, false
	}
	h := holding{pid: main.PID}
	if hp := hostProc(s, main, main.PID); hp != nil {
		h.user = hp.User
		if ppid := JobParent(s.Host, hp); ppid > 0 {
			h.pid, h.ppid = 0, ppid
			if parent := s.Host.Procs[ppid]; parent != nil {
				h.parent = parent.Name
			}
		}
	}
	return h, true
}

// names are HeldBy's kind, job and user of h.
func (h holding) names() (kind, job, user string) {
	if hd, ok := holderOf(h.job, h.owner, &h.pod); ok {
		return hd.Kind, hd.ID, hd.User
	}
	return HeldByProcess, Job{PID: h.pid, PPID: h.ppid, Parent: h.parent}.Key(), h.user
}
