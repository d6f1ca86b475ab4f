package sampler

import "time"

// ProcSocketPath is where `gpuscope serve --proc-socket` is documented to
// listen and where a gpuscope inside a container looks for it: a directory
// to bind-mount (docs/user-guide.md, "Inside a container").
const ProcSocketPath = "/run/gpuscope/procs.sock"

// ProcSource names, inside a container, the GPU processes that are this
// container's, with their PIDs as this PID namespace numbers them, where
// NVML's own list (the host's PIDs) cannot be joined here. Live, it is the
// client of `gpuscope serve --proc-socket` on the host (sampler/procsock;
// docs/user-guide.md, "Inside a container").
type ProcSource interface {
	// Where names the source on screen (the socket's path).
	Where() string
	// Needed reports whether NVML's PIDs call for the source: none at
	// all, or one this PID namespace does not have.
	Needed(nvmlPIDs []int) bool
	// GPUProcs returns the processes by device UUID (a GPU's or a MIG
	// instance's).
	GPUProcs(now time.Time) (map[string][]GPUProc, error)
}

// mergeOwnProcs replaces NVML's processes with src's where src is needed
// and answers, and says so in Node.ProcsFrom; a failed answer leaves NVML's
// list and is a problem of this snapshot. An empty answer where NVML listed
// none changes nothing and is not claimed (gpuscope on the host itself,
// with the host's socket at the default path, while no GPU process runs).
func mergeOwnProcs(snap *Snapshot, src ProcSource, now time.Time) {
	nvml := allPIDs(snap.GPUs)
	if !src.Needed(nvml) {
		return
	}
	byDev, err := src.GPUProcs(now)
	if err != nil {
		snap.Problems = append(snap.Problems, "processes from "+src.Where()+": "+err.Error())
		return
	}
	if len(nvml) == 0 && len(byDev) == 0 {
		return
	}
	for gi := range snap.GPUs {
		g := &snap.GPUs[gi]
		g.Procs = byDev[g.UUID]
		for mi := range g.MIGDevices {
			g.MIGDevices[mi].Procs = byDev[g.MIGDevices[mi].UUID]
		}
	}
	snap.Node.ProcsFrom = src.Where()
}

// allPIDs are the PIDs NVML listed on every GPU and MIG instance.
func allPIDs(gpus []GPU) []int {
	var pids []int
	for i := range gpus {
		pids = append(pids, gpus[i].PIDs()...)
	}
	return pids
}

// PIDs are the PIDs NVML listed on g and its MIG instances.
func (g *GPU) PIDs() []int {
	var pids []int
	for _, p := range g.Procs {
		pids = append(pids, p.PID)
	}
	for _, m := range g.MIGDevices {
		for _, p := range m.Procs {
			pids = append(pids, p.PID)
		}
	}
	return pids
}
