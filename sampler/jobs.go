package sampler

import "time"

// Alloc is the batch scheduler's job a GPU is allocated to, and its user.
type Alloc struct {
	Job  string
	User string
}

// JobSource says which scheduler job holds each GPU (sampler/slurm on a
// Slurm node, the simulator's stand-in in the demo). It reads the
// snapshot's GPUs, processes and host processes, and answers by GPU
// index; a GPU it does not name is held by no job it knows. It must not
// block the tick: a slow scheduler command is run in the background.
type JobSource interface {
	Allocations(now time.Time, snap *Snapshot) map[int]Alloc
}

// AttributeJobs sets GPU.Job and GPU.Owner from src; a nil src does
// nothing.
func AttributeJobs(now time.Time, snap *Snapshot, src JobSource) {
	if src == nil {
		return
	}
	allocs := src.Allocations(now, snap)
	for i := range snap.GPUs {
		g := &snap.GPUs[i]
		if a, ok := allocs[g.Index]; ok {
			g.Job, g.Owner = a.Job, a.User
		}
	}
}
