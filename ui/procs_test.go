package ui

import (
	"errors"
	"os"
	"os/exec"
	"os/user"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/gpuscope/gpuscope/sampler"
)

func TestTreeShowsWorkersWithCPU(t *testing.T) {
	m := fixtureModelN(3, 8, 200, 50, nil)
	m = press(m, "T")
	v := m.View()
	if !strings.Contains(v, "tree") {
		t.Fatal("no tree marker")
	}
	// PID 2100 has 8 workers at 40% CPU: each shows as a child line.
	if n := strings.Count(v, "└ python train.py --rank 0"); n != 8 {
		t.Errorf("%d worker lines, want 8:\n%s", n, v)
	}
	if !strings.Contains(v, "2101 alice") || !strings.Contains(v, "40%") {
		t.Error("worker PID, user or CPU missing")
	}
	if v = press(m, "T").View(); strings.Contains(v, "└ ") {
		t.Error("T did not leave the tree")
	}
}

func TestFilter(t *testing.T) {
	m := fixtureModelN(3, 8, 200, 50, nil)
	for _, tt := range []struct {
		filter string
		pids   []int
	}{
		{"bob", []int{3100}}, {"VLLM", []int{5100}}, {"inference/", []int{5100}}, {"9c1e5a", []int{4100}}, {"6b1b4a2e", []int{5100}}, {"gpu:4", []int{6100}}, {"train.py", []int{2100, 3100, 6100}}, {"gpu:x", nil},
	} {
		keys := []string{"/"}
		for _, r := range tt.filter {
			keys = append(keys, string(r))
		}
		fm := press(m, append(keys, "enter")...)
		fm.procs.collect()
		var got []int
		for _, r := range fm.procs.rows {
			got = append(got, r.pid())
		}
		if len(got) != len(tt.pids) || !sameInts(got, tt.pids) {
			t.Errorf("filter %q: PIDs %v, want %v", tt.filter, got, tt.pids)
		}
		if !strings.Contains(fm.View(), "filter: "+tt.filter) {
			t.Errorf("filter %q not shown", tt.filter)
		}
		// q typed into the filter is text, not quit; esc clears.
		fm = press(fm, "/", "q", "esc")
		if fm.procs.filter.Value() != "" || fm.procs.filtering {
			t.Errorf("esc left filter %q (typing %v)", fm.procs.filter.Value(), fm.procs.filtering)
		}
	}
}

func sameInts(a, b []int) bool {
	seen := map[int]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		seen[x]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

func TestForeignPIDsSaidOnce(t *testing.T) {
	m := fixtureModelN(2, 8, 200, 50, func(s *sampler.Snapshot) {
		s.Host.ForeignPIDs = true
		for gi := range s.GPUs {
			for pi := range s.GPUs[gi].Procs {
				s.GPUs[gi].Procs[pi].Host = nil
			}
		}
	})
	v := m.View()
	const msg = "processes belong to another PID namespace: run the container with --pid=host, or see --proc-socket"
	if n := strings.Count(v, msg); n != 1 {
		t.Errorf("namespace message shown %d times, want once:\n%s", n, v)
	}
	if strings.Contains(v, "not visible") || strings.Contains(v, "error") {
		t.Error("per-row errors shown")
	}
}

// TestProcsFromSocketSaid: processes the host's gpuscope answered with
// (serve --proc-socket) are said to be the container's own, once.
func TestProcsFromSocketSaid(t *testing.T) {
	v := fixtureModelN(2, 8, 200, 50, func(s *sampler.Snapshot) { s.Node.ProcsFrom = "/run/gpuscope/procs.sock" }).View()
	if n := strings.Count(v, "this container's own processes, from the host's gpuscope at /run/gpuscope/procs.sock"); n != 1 {
		t.Errorf("said %d times, want once:\n%s", n, v)
	}
	if v := fixtureModelN(2, 8, 200, 50, nil).View(); strings.Contains(v, "this container's own") {
		t.Error("said with NVML's own list")
	}
}

// TestContainerColumn: wide, a CONTAINER column names the pod and
// container (pod name cut, container name kept) or the short container id;
// at 80 and 120 columns it is hidden and the id goes in front of the
// command; a node with no process in a container has no such column.
func TestContainerColumn(t *testing.T) {
	wide := fixtureModelN(2, 8, 200, 50, func(s *sampler.Snapshot) {
		s.Host.Procs[3100].Container = "4f3c2b1a0d9e8f7a6b5c"
	}).View()
	for _, want := range []string{"CONTAINER", "vllm-70b-6d8f9c7b5d-x2k4q/vllm", "9c1e5a7b3d2f", "4f3c2b1a0d9e  ", " python train.py --bs 256"} {
		if !strings.Contains(wide, want) {
			t.Errorf("200 columns: no %q", want)
		}
	}
	if strings.Contains(wide, "[9c1e") {
		t.Error("200 columns: the id is both in its column and before the command")
	}
	for _, w := range []int{80, 120} {
		v := fixtureModelN(2, 8, w, 50, nil).View()
		if strings.Contains(v, "CONTAINER") {
			t.Errorf("%d columns: CONTAINER shown", w)
		}
		if w == 120 && !strings.Contains(v, "[9c1e5a7b3d2f] python -m ipykernel") {
			t.Errorf("%d columns: no container id before the command", w)
		}
	}
	bare := fixtureModelN(2, 8, 200, 50, func(s *sampler.Snapshot) {
		for _, p := range s.Host.Procs {
			p.Container, p.PodUID, p.Pod = "", "", sampler.Pod{}
		}
	}).View()
	if strings.Contains(bare, "CONTAINER") {
		t.Error("bare metal: a CONTAINER column of dashes")
	}
	long := sampler.Proc{Pod: sampler.Pod{Name: "a-very-long-deployment-name-7d9f8b6c5d-x2k4q", Container: "trainer"}}
	if got := containerCell(&long, containerWidth); got != "a-very-long-deployment-…/trainer" {
		t.Errorf("long pod: %q", got)
	}
}

// signalModel is the 8-GPU node with one extra process, pid, owned by owner,
// on GPU 6, selected in the focused process pane.
func signalModel(t *testing.T, pid int, owner string, opts func(*Options)) Model {
	t.Helper()
	m := fixtureModelN(0, 8, 200, 50, nil)
	o := m.c.opts
	o.User, o.Root, o.SelfPID = currentUser(t), false, os.Getpid()
	o.Kill = syscall.Kill
	if opts != nil {
		opts(&o)
	}
	m = New(o)
	m = m.resize(200, 50)
	s := fixtureSnapshotN(0, 8)
	s.Host.Procs[pid] = &sampler.Proc{PID: pid, PPID: os.Getpid(), User: owner, Name: "sleep", Cmdline: "sleep 30"}
	s.GPUs[6].Procs = []sampler.GPUProc{{PID: pid, Type: "C", MemUsed: sampler.Some(200 * (1 << 30)), Host: s.Host.Procs[pid]}}
	m = push(m, s)
	return press(m, "tab", "tab") // processes; the biggest GPU-MEM row is first
}

func currentUser(t *testing.T) string {
	u, err := user.Current()
	if err != nil {
		t.Skipf("no current user: %v", err)
	}
	return u.Username
}

func TestSignalRealChild(t *testing.T) {
	for _, tt := range []struct {
		key  string
		want syscall.Signal
	}{{"k", syscall.SIGTERM}, {"K", syscall.SIGKILL}} {
		child := exec.Command("sleep", "30")
		if err := child.Start(); err != nil {
			t.Fatalf("start sleep: %v", err)
		}
		done := make(chan error, 1)
		go func() { done <- child.Wait() }()
		m := signalModel(t, child.Process.Pid, currentUser(t), nil)
		if r, _ := m.procs.selected(); r.pid() != child.Process.Pid {
			t.Fatalf("selected PID %d, want the child %d", r.pid(), child.Process.Pid)
		}
		m = press(m, tt.key)
		v := m.View()
		for _, want := range []string{"Send " + signalName(tt.want) + "?", "PID " + itoa(child.Process.Pid), "user " + currentUser(t), "sleep 30"} {
			if !strings.Contains(v, want) {
				t.Errorf("%s: dialog lacks %q:\n%s", tt.key, want, v)
			}
		}
		select {
		case <-done:
			t.Fatal("the child died before confirmation")
		case <-time.After(50 * time.Millisecond):
		}
		m = press(m, "y")
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != tt.want {
				t.Errorf("%s: child ended with %v, want %v", tt.key, err, tt.want)
			}
		case <-time.After(5 * time.Second):
			_ = child.Process.Kill()
			t.Fatalf("%s: the child is still running", tt.key)
		}
		if !strings.Contains(m.View(), "sent "+signalName(tt.want)+" to PID "+itoa(child.Process.Pid)) {
			t.Errorf("%s: outcome not shown", tt.key)
		}
	}
}

func TestSignalRefusals(t *testing.T) {
	var sent []int
	record := func(o *Options) {
		o.Kill = func(pid int, _ syscall.Signal) error { sent = append(sent, pid); return nil }
	}
	for _, tt := range []struct {
		name  string
		pid   int
		owner string
		opts  func(*Options)
		want  string
	}{
		{"init", 1, "root", nil, "refused: PID 1"},
		{"self", os.Getpid(), "", nil, "gpuscope itself"},
		{"other user", 999999, "mallory", nil, "belongs to mallory"},
		{"readonly", 999998, "", func(o *Options) { o.ReadOnly = true }, "read-only"},
	} {
		owner := tt.owner
		if owner == "" {
			owner = currentUser(t)
		}
		m := signalModel(t, tt.pid, owner, func(o *Options) {
			record(o)
			if tt.opts != nil {
				tt.opts(o)
			}
		})
		m = press(m, "K")
		if m.pages.top() == pageConfirm {
			t.Errorf("%s: a confirmation opened", tt.name)
		}
		if v := m.View(); !strings.Contains(v, tt.want) {
			t.Errorf("%s: footer lacks %q", tt.name, tt.want)
		}
	}
	// Root may signal another user's process; n cancels.
	m := signalModel(t, 999997, "mallory", func(o *Options) { record(o); o.Root = true })
	if m = press(m, "k"); m.pages.top() != pageConfirm {
		t.Fatal("root: no confirmation for another user's process")
	}
	dialog := m.resize(80, 24).View()
	requireFits(t, dialog, 80, 24)
	golden.RequireEqual(t, []byte(dialog))
	if m = press(m, "n"); !strings.Contains(m.View(), "cancelled") {
		t.Error("n did not cancel")
	}
	if len(sent) != 0 {
		t.Errorf("signals sent %v, want none", sent)
	}
}

func TestMouse(t *testing.T) {
	m := fixtureModelN(5, 8, 200, 50, nil)
	click := func(m Model, x, y int) Model {
		nm, _ := m.Update(tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
		return nm.(Model)
	}
	l := m.layout
	m = click(m, 10, l.GPUs.Y+1+2*3) // wide rows: GPU 3's first line
	if m.gpus.cursor != 3 || m.c.selGPU != 3 {
		t.Errorf("click on GPU 3: cursor %d side %d", m.gpus.cursor, m.c.selGPU)
	}
	m = click(m, 10, l.Findings.Y+1+3) // second finding (3 lines each)
	if m.c.focus != focusFindings || m.findings.cursor != 1 {
		t.Errorf("click on finding 2: focus %d cursor %d", m.c.focus, m.findings.cursor)
	}
	m.procs.View()
	m = click(m, 10, l.Procs.Y+m.procs.firstRowLine+2)
	if m.c.focus != focusProcs || m.procs.cursor != 2 {
		t.Errorf("click on process 3: focus %d cursor %d", m.c.focus, m.procs.cursor)
	}
	nm, _ := m.Update(tea.MouseMsg{X: 10, Y: l.Procs.Y + 3, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if m = nm.(Model); m.procs.cursor != 3 {
		t.Errorf("wheel down: cursor %d, want 3", m.procs.cursor)
	}
	m = click(m, 2+7+1+8+1+1, l.Procs.Y+m.procs.firstRowLine-1) // header: the GPU column
	if m.procs.cols[m.procs.sortBy].name != "GPU" {
		t.Errorf("header click sorts by %s, want GPU", m.procs.cols[m.procs.sortBy].name)
	}
}

// The filter is a text input: the cursor moves and edits in place.
func TestFilterEditsAtTheCursor(t *testing.T) {
	m := fixtureModelN(2, 8, 200, 50, nil)
	m = press(m, "/", "b", "o", "left", "x", "right", "b")
	if got := m.procs.filter.Value(); got != "bxob" {
		t.Fatalf("filter %q, want bxob", got)
	}
	if v := m.View(); !strings.Contains(v, "/ bxob▏") {
		t.Errorf("filter line does not show the text and cursor:\n%s", v)
	}
	m = press(m, "left", "left")
	if v := m.View(); !strings.Contains(v, "/ bx▏ob") {
		t.Errorf("cursor not drawn where it is")
	}
	if m = press(m, "enter"); m.procs.filtering || m.procs.filter.Value() != "bxob" {
		t.Errorf("enter: filtering %v value %q", m.procs.filtering, m.procs.filter.Value())
	}
}

// Bugs found in use: a second / starts a new filter instead of appending
// to the kept one, and a filter matching nothing says so rather than
// claiming there are no GPU processes; the title's row count agrees in
// number ("1 row").
func TestFilterSlashStartsNewAndNoMatch(t *testing.T) {
	m := fixtureModelN(3, 8, 200, 50, nil)
	m = press(m, "/", "b", "o", "b", "enter", "/", "g", "p", "u", ":", "4", "enter")
	if got := m.procs.filter.Value(); got != "gpu:4" {
		t.Fatalf("second / gave filter %q, want gpu:4", got)
	}
	v := m.View()
	if !strings.Contains(v, "1 row on") || strings.Contains(v, "1 rows") {
		t.Errorf("one matching process is not \"1 row\":\n%s", v)
	}
	m = press(m, "/", "n", "o", "b", "o", "d", "y", "enter")
	v = m.View()
	if strings.Contains(v, "no GPU processes") || !strings.Contains(v, "no match") {
		t.Errorf("an empty filter result:\n%s", v)
	}
}
