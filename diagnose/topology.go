package diagnose

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// Job is a group of GPUs one job uses, seen in one snapshot: GPU processes
// whose parent launched them as ranks (torchrun, deepspeed, mpirun,
// mp.spawn), or one process on several GPUs. The diagnosis (groupJobs) and
// the topology page both group with jobParent, so they agree.
type Job struct {
	PPID   int    // the launching parent; 0 when the job is the one process PID
	PID    int    // the process on several GPUs, when PPID is 0
	Parent string // the parent's name, "" when unknown
	GPUs   []int  // GPU indices, ascending
}

// Key names the job: "torchrun, PPID 2000", "PPID 2000" or "PID 2100".
// Joined, not formatted: GPU-hours and the energy by job name one per GPU
// and process of every sample, and Sprintf was a sixth of the summary's own
// CPU on a day's report (docs/benchmarks.md, "Recordings: the scanner's
// own cost").
func (j Job) Key() string {
	switch {
	case j.PPID == 0:
		return "PID " + strconv.Itoa(j.PID)
	case j.Parent != "":
		return j.Parent + ", PPID " + strconv.Itoa(j.PPID)
	}
	return "PPID " + strconv.Itoa(j.PPID)
}

// JobParent is the PID of the parent that makes p one rank of a job, 0 when
// none: PPID ≤ 1 is init or unknown, and a shell (bash running two scripts,
// tmux, sshd) does not make its children one job. The exporter publishes
// it (the job_pid label), so ranks rebuilt from Prometheus, which carry no
// process tree, group as they do on the node.
func JobParent(host *sampler.Host, p *sampler.Proc) int {
	if p == nil || p.PPID <= 1 {
		return 0
	}
	if host != nil && isShell(host.Procs[p.PPID]) {
		return 0
	}
	return p.PPID
}

// Jobs are the jobs of s that use two GPUs or more, ordered by Key.
func Jobs(s *sampler.Snapshot) []Job {
	byKey := map[string]*Job{}
	add := func(j Job, gpu int) {
		k := j.Key()
		if byKey[k] == nil {
			byKey[k] = &j
		}
		if !slices.Contains(byKey[k].GPUs, gpu) {
			byKey[k].GPUs = append(byKey[k].GPUs, gpu)
		}
	}
	for _, g := range s.GPUs {
		for _, pr := range g.Procs {
			add(Job{PID: pr.PID}, g.Index)
			if ppid := JobParent(s.Host, pr.Host); ppid > 0 {
				j := Job{PPID: ppid}
				if s.Host != nil {
					if parent := s.Host.Procs[ppid]; parent != nil {
						j.Parent = parent.Name
					}
				}
				add(j, g.Index)
			}
		}
	}
	var out []Job
	for _, j := range byKey {
		if len(j.GPUs) >= 2 {
			sort.Ints(j.GPUs)
			out = append(out, *j)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Key() < out[b].Key() })
	return out
}

// SlowPair is two GPUs of one job linked by a path that is not NVLink.
type SlowPair struct {
	A, B int
	Link string // the topology cell, e.g. "SYS"
	Job  Job
}

// SlowPairs are the GPU pairs of one job whose link is not NVLink: where
// collective communication waits come from ([gpu-idle-handbook] §3.3). A pair is
// listed once, under the first job (by Key) that uses it.
func SlowPairs(s *sampler.Snapshot) []SlowPair {
	if s.Topology == nil {
		return nil
	}
	links := s.Topology.Links
	var out []SlowPair
	seen := map[[2]int]bool{}
	for _, j := range Jobs(s) {
		gs := j.GPUs
		for i := 0; i < len(gs); i++ {
			for k := i + 1; k < len(gs); k++ {
				a, b := gs[i], gs[k]
				if a >= len(links) || b >= len(links[a]) || seen[[2]int{a, b}] {
					continue
				}
				if l := links[a][b]; !strings.HasPrefix(l, "NV") && l != "X" && l != "" {
					seen[[2]int{a, b}] = true
					out = append(out, SlowPair{a, b, l, j})
				}
			}
		}
	}
	return out
}
