package host

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// fakeProc writes one process into a fake procfs tree. Empty cmdline/status/
// cgroup leave that file absent, as for a process whose files are unreadable.
func fakeProc(t *testing.T, root string, pid int, stat, cmdline, status, cgroup string) {
	t.Helper()
	dir := filepath.Join(root, itoa(uint64(pid)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"stat": stat, "cmdline": cmdline, "status": status, "cgroup": cgroup} {
		if text == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const aliceStatus = "Name:\tpython\nUid:\t1000\t1000\t1000\t1000\n"

func TestSampleFakeProcTree(t *testing.T) {
	root := t.TempDir()
	boot := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fakeProc(t, root, 1, statLine(1, "init", 'S', 0, 0, 0, 1, 1, 100), "/sbin/init\x00", "", "")
	fakeProc(t, root, 100, statLine(100, "bash", 'S', 1, 0, 0, 1, 500, 100), "bash\x00", aliceStatus, "")
	fakeProc(t, root, 101, statLine(101, "python", 'R', 100, 1000, 200, 40, 6000, 25600),
		"python\x00train.py\x00", aliceStatus, "0::/system.slice/docker-"+hexA+".scope\n")
	fakeProc(t, root, 102, statLine(102, "pt_data_worker", 'D', 101, 10, 0, 3, 6100, 512), "python\x00-c\x00worker\x00", "", "")
	fakeProc(t, root, 200, statLine(200, "sshd", 'S', 1, 0, 0, 1, 300, 100), "sshd\x00", "", "")
	if err := os.MkdirAll(filepath.Join(root, "self"), 0o755); err != nil { // not a PID: ignored
		t.Fatal(err)
	}

	lookups := 0
	src := New(Options{
		ProcRoot: root, SysRoot: filepath.Join(root, "nosys"),
		BootTime: boot, TicksPerSec: 100,
		LookupUser: func(uid string) (string, error) {
			lookups++
			if uid == "1000" {
				return "alice", nil
			}
			return "", errors.New("unknown uid")
		},
	})
	t0 := time.Date(2026, 1, 2, 4, 0, 0, 0, time.UTC)
	h, err := src.Sample(t0, []int{101})
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(h.Procs)); !slices.Equal(got, []int{101, 102}) {
		t.Fatalf("Procs = %v, want [101 102] (the GPU process and its worker, not its parent or strangers)", got)
	}
	py, worker := h.Procs[101], h.Procs[102]
	if py.PPID != 100 || py.Name != "python" || py.Cmdline != "python train.py" || py.State != "R" ||
		py.User != "alice" || py.Threads != 40 || py.Container != hexA[:12] || !slices.Equal(py.Children, []int{102}) {
		t.Errorf("python proc = %+v", *py)
	}
	if want := float64(25600 * os.Getpagesize()); py.RSS.V != want || !py.RSS.OK {
		t.Errorf("RSS = %v, want %v", py.RSS, want)
	}
	if want := boot.Add(60 * time.Second); !py.Start.Equal(want) {
		t.Errorf("Start = %v, want %v (boot + 6000 ticks at 100/s)", py.Start, want)
	}
	if py.CPU.OK {
		t.Errorf("CPU on the first sample = %v, want n/a", py.CPU)
	}
	if worker.User != "" || worker.State != "D" || worker.Container != "" || len(worker.Children) != 0 {
		t.Errorf("worker (no readable status) = %+v", *worker)
	}
	if h.ForeignPIDs || h.MemTotal.OK || h.CPUs != nil {
		t.Errorf("ForeignPIDs %v, MemTotal %v, CPUs %v: want false, n/a, nil (fake root has no meminfo/stat)", h.ForeignPIDs, h.MemTotal, h.CPUs)
	}

	// One second later python used 50 more ticks (0.5 s of CPU): 50% of a core.
	fakeProc(t, root, 101, statLine(101, "python", 'R', 100, 1040, 210, 40, 6000, 25600), "", "", "")
	h, _ = src.Sample(t0.Add(time.Second), []int{101})
	if got := h.Procs[101].CPU; !got.OK || got.V != 50 {
		t.Errorf("CPU = %v, want 50", got)
	}
	if lookups != 1 {
		t.Errorf("user looked up %d times, want 1 (cached by uid and by process)", lookups)
	}

	// PID 101 is reused by a new process: no CPU delta across processes, and
	// its command line is read afresh.
	fakeProc(t, root, 101, statLine(101, "python", 'S', 100, 5, 0, 1, 9000, 100), "python\x00eval.py\x00", "", "")
	h, _ = src.Sample(t0.Add(2*time.Second), []int{101})
	if p := h.Procs[101]; p.CPU.OK || p.Cmdline != "python eval.py" {
		t.Errorf("reused PID: CPU %v, cmdline %q; want n/a, %q", p.CPU, p.Cmdline, "python eval.py")
	}

	// The worker exits: it leaves Procs and its parent's Children.
	if err := os.RemoveAll(filepath.Join(root, "102")); err != nil {
		t.Fatal(err)
	}
	h, _ = src.Sample(t0.Add(3*time.Second), []int{101, 4242})
	if _, ok := h.Procs[102]; ok || len(h.Procs[101].Children) != 0 || h.ForeignPIDs {
		t.Errorf("after exit: Procs %v, children %v, ForeignPIDs %v", slices.Sorted(maps.Keys(h.Procs)), h.Procs[101].Children, h.ForeignPIDs)
	}
	if len(src.procs.cpu) != 1 || len(src.procs.static) != 1 {
		t.Errorf("cache holds %d cpu, %d static entries; want 1, 1 (dead and old processes evicted)", len(src.procs.cpu), len(src.procs.static))
	}
}

func TestProcTreeFollowsReparenting(t *testing.T) {
	root := t.TempDir()
	fakeProc(t, root, 1, statLine(1, "init", 'S', 0, 0, 0, 1, 1, 1), "", "", "")
	fakeProc(t, root, 10, statLine(10, "torchrun", 'S', 1, 0, 0, 1, 10, 1), "", "", "")
	fakeProc(t, root, 11, statLine(11, "python", 'S', 10, 0, 0, 1, 11, 1), "", "", "")
	fakeProc(t, root, 12, statLine(12, "worker", 'S', 11, 0, 0, 1, 12, 1), "", "", "")
	fakeProc(t, root, 20, statLine(20, "sshd", 'S', 1, 0, 0, 1, 20, 1), "", "", "")
	src := New(Options{ProcRoot: root, SysRoot: root, BootTime: time.Unix(0, 0), TicksPerSec: 100})
	now := time.Unix(1000, 0)
	shown := func() []int {
		t.Helper()
		now = now.Add(time.Second)
		h, err := src.Sample(now, []int{10})
		if err != nil {
			t.Fatal(err)
		}
		return slices.Sorted(maps.Keys(h.Procs))
	}
	if got := shown(); !slices.Equal(got, []int{10, 11, 12}) {
		t.Fatalf("shown = %v, want [10 11 12]", got)
	}

	// 11 exits and 10 (a subreaper, like torchrun) adopts its worker; a new
	// worker 13 starts under 12.
	if err := os.RemoveAll(filepath.Join(root, "11")); err != nil {
		t.Fatal(err)
	}
	fakeProc(t, root, 12, statLine(12, "worker", 'S', 10, 0, 0, 1, 12, 1), "", "", "")
	fakeProc(t, root, 13, statLine(13, "worker", 'S', 12, 0, 0, 1, 13, 1), "", "", "")
	if got := shown(); !slices.Equal(got, []int{10, 12, 13}) {
		t.Fatalf("after reparenting: shown = %v, want [10 12 13]", got)
	}

	// A process whose parent is alive is not re-read: the parent link of a
	// living parent cannot change, and re-reading 1,000 stat files a tick is
	// what the tree exists to avoid.
	fakeProc(t, root, 20, statLine(20, "sshd", 'S', 10, 0, 0, 1, 20, 1), "", "", "")
	if got := shown(); !slices.Equal(got, []int{10, 12, 13}) {
		t.Fatalf("stat of a settled process was re-read: shown = %v", got)
	}
}

// TestProcessVanishesBetweenListAndRead: NVML listed a PID whose /proc
// entry is gone, or half gone (the directory listed, its stat file already
// removed as the process exited): it is left out without an error, and the
// other processes are read.
func TestProcessVanishesBetweenListAndRead(t *testing.T) {
	root := t.TempDir()
	fakeProc(t, root, 1, statLine(1, "init", 'S', 0, 0, 0, 1, 1, 100), "/sbin/init\x00", "", "")
	fakeProc(t, root, 101, statLine(101, "python", 'R', 1, 1000, 200, 40, 6000, 25600), "python\x00train.py\x00", aliceStatus, "")
	if err := os.MkdirAll(filepath.Join(root, "202"), 0o755); err != nil { // exiting: no stat, no cmdline
		t.Fatal(err)
	}
	src := New(Options{ProcRoot: root, SysRoot: filepath.Join(root, "nosys"), TicksPerSec: 100,
		LookupUser: func(string) (string, error) { return "alice", nil }})
	h, err := src.Sample(time.Date(2026, 1, 2, 4, 0, 0, 0, time.UTC), []int{101, 202, 303})
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(h.Procs)); !slices.Equal(got, []int{101}) || h.Procs[101].Cmdline != "python train.py" {
		t.Fatalf("Procs = %v, want only 101 read", got)
	}
}
