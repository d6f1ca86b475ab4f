package diagnose

import (
	"slices"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// twoScripts: python a.py on GPU 0 and python b.py on GPU 1, both started
// from one parent, over a SYS link; parent is that parent's name.
func twoScripts(parent string) sampler.Snapshot {
	host := &sampler.Host{Procs: map[int]*sampler.Proc{
		500: {PID: 500, PPID: 1, Name: parent},
		601: {PID: 601, PPID: 500, Name: "python", Cmdline: "python a.py"},
		602: {PID: 602, PPID: 500, Name: "python", Cmdline: "python b.py"},
	}}
	s := sampler.Snapshot{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Host: host,
		Topology: &sampler.Topology{Links: [][]string{{"X", "SYS"}, {"SYS", "X"}}}}
	for i, pid := range []int{601, 602} {
		s.GPUs = append(s.GPUs, sampler.GPU{Index: i, Util: sampler.Some(90),
			Procs: []sampler.GPUProc{{PID: pid, Type: "C", MemUsed: sampler.Some(1 << 30), Host: host.Procs[pid]}}})
	}
	return s
}

// The topology page and the diagnosis group GPUs into jobs the same way: a
// shell running two scripts is not one job (the page used to mark the pair),
// torchrun's ranks are.
func TestJobsAgreeWithDiagnosis(t *testing.T) {
	for _, tc := range []struct {
		parent string
		oneJob bool
	}{{"bash", false}, {"tmux", false}, {"torchrun", true}} {
		s := twoScripts(tc.parent)
		c := newCtx([]sampler.Snapshot{s})
		diagnosisOne := len(c.jobs) == 1 && len(c.jobs[0].gpus) == 2
		var pageOne bool
		for _, j := range Jobs(&s) {
			pageOne = pageOne || (j.PPID == 500 && slices.Equal(j.GPUs, []int{0, 1}))
		}
		if diagnosisOne != tc.oneJob || pageOne != tc.oneJob {
			t.Errorf("parent %s: diagnosis one job %v, topology one job %v; want %v", tc.parent, diagnosisOne, pageOne, tc.oneJob)
		}
		if pairs := SlowPairs(&s); (len(pairs) == 1) != tc.oneJob {
			t.Errorf("parent %s: slow pairs %+v", tc.parent, pairs)
		}
	}
}

// Ranks rebuilt from Prometheus carry the job parent the node published
// (job_pid) but not the parent process itself: they still group as one job,
// as on the node, so a straggler is not seven launch_bound ranks.
func TestRanksWithoutTheParentProcessGroup(t *testing.T) {
	s := twoScripts("torchrun")
	delete(s.Host.Procs, 500)
	c := newCtx([]sampler.Snapshot{s})
	if len(c.jobs) != 1 || len(c.jobs[0].gpus) != 2 {
		t.Errorf("jobs %+v, want one job over both GPUs", c.jobs)
	}
}
