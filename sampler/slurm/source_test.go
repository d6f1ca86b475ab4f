package slurm

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestSourceAllocations: a fake /proc and scontrol's answer. GPU 0's
// process names its job in its environment, GPU 1's only in its cgroup
// (another user's environment is unreadable), GPU 3 is allocated by
// scontrol with no process: every GPU is attributed.
func TestSourceAllocations(t *testing.T) {
	proc := t.TempDir()
	write := func(pid, name string, b []byte) {
		dir := filepath.Join(proc, pid)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("100", "environ", read(t, "environ-srun.bin"))
	write("200", "cgroup", read(t, "cgroup-v2.txt"))
	write("300", "cgroup", read(t, "cgroup-v2-ssh.txt"))
	done := make(chan struct{})
	src := New(Options{Proc: proc, Hostname: "node-06", Scontrol: func(context.Context) ([]byte, error) {
		defer close(done)
		return read(t, "irush-get_jobs.txt"), nil
	}})
	snap := &sampler.Snapshot{
		GPUs: []sampler.GPU{
			{Index: 0, Procs: []sampler.GPUProc{{PID: 100}}},
			{Index: 1, Procs: []sampler.GPUProc{{PID: 200}}},
			{Index: 4, Procs: []sampler.GPUProc{{PID: 300}}},
		},
		Host: &sampler.Host{Procs: map[int]*sampler.Proc{200: {PID: 200, User: "bob"}}},
	}
	now := time.Now()
	src.Allocations(now, snap) // starts scontrol in the background
	<-done
	var got map[int]sampler.Alloc
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if got = src.Allocations(now, snap); len(got) > 3 { // the answer lands under the lock just after done
			break
		}
	}
	want := map[int]sampler.Alloc{
		0: {Job: "4242017", User: "alice"}, // environ wins over scontrol's job 153291 on GPU 0
		1: {Job: "31337", User: "bob"},     // cgroup, user from the host process
		2: {Job: "153291", User: "user3"},  // allocated, no process
		3: {Job: "153291", User: "user3"},
		5: {Job: "153291", User: "user3"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i, a := range want {
		if got[i] != a {
			t.Errorf("GPU %d: got %+v, want %+v", i, got[i], a)
		}
	}
}

// TestSourceNoScontrol: without scontrol, only processes attribute GPUs,
// and a process outside Slurm attributes none.
func TestSourceNoScontrol(t *testing.T) {
	src := New(Options{Proc: t.TempDir()})
	snap := &sampler.Snapshot{GPUs: []sampler.GPU{{Index: 0, Procs: []sampler.GPUProc{{PID: 1}}}}}
	if got := src.Allocations(time.Now(), snap); len(got) != 0 {
		t.Errorf("got %v", got)
	}
}
