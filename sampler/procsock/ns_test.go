package procsock

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// helperEnv makes the test binary the container's first process (nsHelper).
const helperEnv = "GPUSCOPE_PROCSOCK_HELPER"

func TestMain(m *testing.M) {
	if path := os.Getenv(helperEnv); path != "" {
		os.Exit(nsHelper(path))
	}
	if path := os.Getenv(askAndLeaveEnv); path != "" {
		os.Exit(askAndLeave(path))
	}
	os.Exit(m.Run())
}

// nsHelper runs as PID 1 of a new PID namespace: told "go" once its parent
// has moved it into its cgroup, it starts a sleeper in its namespace and
// one in a namespace nested in it, prints the three PIDs as it sees them,
// and on "query" prints the socket's answer.
func nsHelper(socket string) int {
	in := bufio.NewScanner(os.Stdin)
	if !in.Scan() || in.Text() != "go" {
		return 2
	}
	same := exec.Command("sleep", "60")
	nested := exec.Command("sleep", "60")
	nested.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWPID}
	for _, c := range []*exec.Cmd{same, nested} {
		if err := c.Start(); err != nil {
			fmt.Printf("error: %v\n", err)
			return 1
		}
	}
	fmt.Printf("ready %d %d %d\n", os.Getpid(), same.Process.Pid, nested.Process.Pid)
	if !in.Scan() || in.Text() != "query" {
		return 2
	}
	r, err := Query(socket, 5*time.Second)
	if err != nil {
		fmt.Printf("error: %v\n", err)
		return 1
	}
	b, _ := json.Marshal(r)
	fmt.Printf("%s\n", b)
	return 0 // PID 1 leaving ends its namespace: the sleepers too
}

// notHere fails where CI is set (CI runs as root on a machine that can),
// else skips: a developer's machine may not allow namespaces.
func notHere(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set and the PID namespace test cannot run: "+format, args...)
	}
	t.Skipf("needs root, PID namespaces and a writable cgroup: "+format, args...)
}

// cgroupDir is the directory of this process's cgroup in the hierarchy
// the server compares (parseCgroup).
func cgroupDir(t *testing.T) string {
	t.Helper()
	text, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		notHere(t, "%v", err)
	}
	k, err := parseCgroup(string(text))
	if err != nil {
		notHere(t, "%v", err)
	}
	root := "/sys/fs/cgroup"
	if k.v1 {
		root += "/memory"
	}
	return root + k.path
}

// newCgroup creates a child of dir, removed at the end of the test.
func newCgroup(t *testing.T, dir, name string) string {
	t.Helper()
	cg := filepath.Join(dir, fmt.Sprintf("gpuscope-test-%d-%s", os.Getpid(), name))
	if err := os.Mkdir(cg, 0o755); err != nil {
		notHere(t, "creating a cgroup: %v", err)
	}
	t.Cleanup(func() {
		for range 100 { // its processes take a moment to leave once killed
			if err := os.Remove(cg); err == nil || os.IsNotExist(err) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Errorf("cgroup %s left behind", cg)
	})
	return cg
}

func moveTo(t *testing.T, cg string, pid int) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(cg, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		notHere(t, "moving %d into %s: %v", pid, cg, err)
	}
}

// The server, reading the real /proc, answers a process in its own PID
// namespace and cgroup with its processes' PIDs as it numbers them (one of
// them in a namespace nested in its own), and nothing of a process in
// another cgroup or of the host.
func TestContainerSeesItsOwnPIDs(t *testing.T) {
	if os.Getuid() != 0 {
		notHere(t, "running as uid %d", os.Getuid())
	}
	dir := cgroupDir(t)
	box, other := newCgroup(t, dir, "box"), newCgroup(t, dir, "other")
	socket := filepath.Join(t.TempDir(), "procs.sock")

	helper := exec.Command(os.Args[0], "-test.run=^$")
	helper.Env = append(os.Environ(), helperEnv+"="+socket)
	helper.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWPID, Pdeathsig: syscall.SIGKILL}
	stdin, _ := helper.StdinPipe()
	stdout, _ := helper.StdoutPipe()
	helper.Stderr = os.Stderr
	if err := helper.Start(); err != nil {
		notHere(t, "starting a process in a new PID namespace: %v", err)
	}
	t.Cleanup(func() { _ = helper.Process.Kill(); _ = helper.Wait() })
	moveTo(t, box, helper.Process.Pid)
	out := bufio.NewScanner(stdout)
	fmt.Fprintln(stdin, "go")
	if !out.Scan() || !strings.HasPrefix(out.Text(), "ready ") {
		t.Fatalf("helper: %q %v", out.Text(), out.Err())
	}
	var seen []int // as the container numbers them
	for _, f := range strings.Fields(strings.TrimPrefix(out.Text(), "ready ")) {
		n, _ := strconv.Atoi(f)
		seen = append(seen, n)
	}
	if len(seen) != 3 || seen[0] != 1 {
		t.Fatalf("the helper sees itself and its sleepers as %v, want itself as 1 (a new PID namespace)", seen)
	}
	hostPIDs := readPIDs(t, filepath.Join(box, "cgroup.procs"))
	if len(hostPIDs) != 3 {
		t.Fatalf("cgroup %s holds %v, want the helper and its two sleepers", box, hostPIDs)
	}
	outsider := exec.Command("sleep", "60")
	if err := outsider.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = outsider.Process.Kill(); _ = outsider.Wait() })
	moveTo(t, other, outsider.Process.Pid)

	gpus := []sampler.GPU{
		{UUID: "GPU-a", Procs: procs(append(hostPIDs, outsider.Process.Pid)...)},
		{UUID: "GPU-b", Procs: procs(os.Getpid(), outsider.Process.Pid)},
	}
	ln, err := Listen(socket)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_ = (&Server{FS: ProcDir{Root: "/proc"}, Latest: func() []sampler.GPU { return gpus }}).Serve(ctx, ln)
	}()

	fmt.Fprintln(stdin, "query")
	if !out.Scan() {
		t.Fatalf("no answer: %v", out.Err())
	}
	var r Response
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("helper said %q", out.Text())
	}
	var got []int
	for _, p := range r.Procs {
		if p.Device != "GPU-a" {
			t.Errorf("answered %+v: GPU-b holds no process of the container", p)
		}
		got = append(got, p.PID)
	}
	slices.Sort(got)
	slices.Sort(seen)
	if !slices.Equal(got, seen) || r.Hidden != 0 {
		t.Errorf("the container was answered PIDs %v (hidden %d), want its own %v (host PIDs %v; the outsider %d and the host's %d left out)",
			got, r.Hidden, seen, hostPIDs, outsider.Process.Pid, os.Getpid())
	}
	_ = stdin.Close()
	_, _ = io.Copy(io.Discard, stdout)
}

func readPIDs(t *testing.T, file string) []int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		n, _ := strconv.Atoi(f)
		pids = append(pids, n)
	}
	return pids
}
