package timeline

import (
	"path/filepath"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
	"github.com/gpuscope/gpuscope/sampler/trace/tracetest/nsystest"
)

// An nsys export of a two-process run (torchrun under one `nsys profile`)
// is two ranks: each process analysed alone, its launches joined to its own
// kernels although both number their calls alike, ranks numbered by GPU,
// and the slower one named the straggler, as two Kineto files would be.
func TestNsysExportOfSeveralProcessesIsSeveralRanks(t *testing.T) {
	dir := t.TempDir()
	one := nsystest.Workload(5, 60)
	slow := make([]nsystest.Ev, len(one))
	for i, e := range one { // rank 1 computes twice as long
		e.Start, e.Dur = 2*e.Start, 2*e.Dur
		slow[i] = e
	}
	single := filepath.Join(dir, "one.sqlite")
	if err := nsystest.WriteNsys(single, one, true); err != nil {
		t.Fatal(err)
	}
	_, alone := reportOf(t, single)

	both := filepath.Join(dir, "both.sqlite")
	if err := nsystest.WriteNsysRanks(both, [][]nsystest.Ev{slow, one}, true); err != nil {
		t.Fatal(err)
	}
	procs := NewProcs()
	m, err := trace.ReadFile(both, procs.Add)
	if err != nil {
		t.Fatal(err)
	}
	ranks := procs.Ranks(m)
	if len(ranks) != 2 {
		t.Fatalf("%d ranks, want 2", len(ranks))
	}
	for i, r := range ranks {
		if r.Rank != i || r.GPU != i || r.Proc != nsystest.PID+int64(i) {
			t.Errorf("rank %d: rank %d, GPU %d, pid %d; want rank and GPU %d, pid %d", i, r.Rank, r.GPU, r.Proc, i, nsystest.PID+int64(i))
		}
		want := alone.Ranks[0]
		if r.Kernels.Count != want.Kernels.Count || r.Analysed != want.Analysed || len(r.Steps) != len(want.Steps) {
			t.Errorf("rank %d: %d kernels, %d GPU events, %d steps; want %d, %d, %d as the process alone",
				i, r.Kernels.Count, r.Analysed, len(r.Steps), want.Kernels.Count, want.Analysed, len(want.Steps))
		}
		if r.Kernels.LaunchCPU != want.Kernels.LaunchCPU*float64(2-i) {
			t.Errorf("rank %d: launches %v µs on the CPU, want %v: joined to another process's kernels?", i, r.Kernels.LaunchCPU, want.Kernels.LaunchCPU*float64(2-i))
		}
	}
	rep := NewReport(ranks)
	found := false
	for _, f := range rep.Findings {
		found = found || (f.Rule == "straggler" && f.Rank == 0)
	}
	if !found {
		t.Errorf("rank 0, twice as slow, is not named the straggler: %+v", rep.Findings)
	}
}
