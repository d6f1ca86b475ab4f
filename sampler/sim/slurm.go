package sim

import (
	"strconv"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// slurmJob allocates gpus to a new Slurm job of user, as scontrol's GRES
// indices would say, and returns its id. Only scenarios that run under
// Slurm call it, so the others keep their random streams.
func (b *builder) slurmJob(gpus []int, user string) string {
	id := strconv.Itoa(4_100_000 + b.rng.IntN(900_000))
	if b.n.jobs == nil {
		b.n.jobs = map[int]sampler.Alloc{}
	}
	for _, g := range gpus {
		b.n.jobs[g] = sampler.Alloc{Job: id, User: user}
	}
	return id
}

// Allocations implements sampler.JobSource: the demo's stand-in for
// sampler/slurm (the processes' SLURM_JOB_ID and scontrol's GRES indices).
func (n *Node) Allocations(time.Time, *sampler.Snapshot) map[int]sampler.Alloc {
	if len(n.jobs) == 0 {
		return nil
	}
	out := make(map[int]sampler.Alloc, len(n.jobs))
	for g, a := range n.jobs {
		out[g] = a
	}
	return out
}

// buildAllocatedIdle: frank's job was given GPUs 0 and 1, but its batch
// script never started a GPU process (a failed srun step, a script still
// preprocessing on the CPU): the GPUs sit at idle power with no process
// and no memory used, invisible to every tool that starts from processes.
// Alice's 6-rank job trains on GPUs 2-7 beside it.
func buildAllocatedIdle(b *builder) {
	b.slurmJob([]int{0, 1}, "frank")
	gpus := []int{2, 3, 4, 5, 6, 7}
	b.slurmJob(gpus, "alice")
	c := newCycle(b.sub(), trainPhases(b.rng, true)...)
	b.torchrun(gpus, trainingHost("alice", "cfg/llama3-8b.yaml"), c, jobLevels(c))
}
