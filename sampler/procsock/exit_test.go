package procsock

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// askAndLeaveEnv makes the test binary a peer that asks and exits at once.
const askAndLeaveEnv = "GPUSCOPE_PROCSOCK_ASK_AND_LEAVE"

func askAndLeave(path string) int {
	c, err := net.Dial("unix", path)
	if err != nil {
		return 1
	}
	_, _ = c.Write([]byte("{\"version\":1}\n"))
	return 0
}

// slowFS answers for any PID as the container's, but only once release
// is closed: the peer has exited by then.
type slowFS struct{ release chan struct{} }

func (f slowFS) Cgroup(int) (string, error)        { <-f.release; return v1("/docker/box"), nil }
func (f slowFS) NSpid(pid int) ([]int, error)      { return []int{pid, 1}, nil }
func (f slowFS) PIDNamespace(int, int) (NS, error) { return boxNS, nil }

// A peer that exits while its answer is made is not answered: its PID may
// belong to another process by then, whose cgroup /proc described.
func TestPeerThatLeftIsNotAnswered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "procs.sock")
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	peer := exec.Command(os.Args[0], "-test.run=^$")
	peer.Env = append(os.Environ(), askAndLeaveEnv+"="+path)
	if err := peer.Start(); err != nil {
		t.Fatal(err)
	}
	c, err := ln.AcceptUnix()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw, _ := c.SyscallConn()
	var perr error
	_ = raw.Control(func(fd uintptr) {
		var pidfd int
		if pidfd, perr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, soPeerPIDFD); perr == nil {
			syscall.Close(pidfd)
		}
	})
	if perr != nil {
		t.Skipf("no SO_PEERPIDFD here (Linux 6.5 and later): %v", perr)
	}
	fs := slowFS{make(chan struct{})}
	go func() { _ = peer.Wait(); close(fs.release) }()
	srv := &Server{FS: fs, Latest: func() []sampler.GPU { return []sampler.GPU{{UUID: "GPU-a", Procs: procs(501)}} }}
	if r := srv.respond(c); r.Error != "you exited while asking" || len(r.Procs) > 0 {
		t.Errorf("a peer that left was answered %+v", r)
	}
}
