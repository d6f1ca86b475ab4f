package procsock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// What one peer may hold: a connection lives at most DefaultTimeout from
// accept to answer, and at most DefaultMaxConns are served at once; one
// more is closed unanswered, so a silent or flooding peer delays others by
// at most a timeout and never holds the sampling loop (docs/security.md).
const (
	DefaultTimeout  = 2 * time.Second
	DefaultMaxConns = 16
)

// Server answers each peer for its own cgroup (Answer) from the latest
// sample the serve loop took.
type Server struct {
	FS       ProcFS
	Latest   func() []sampler.GPU // nil before the first tick
	Timeout  time.Duration        // per connection; DefaultTimeout when 0
	MaxConns int                  // DefaultMaxConns when 0
}

// Listen creates the socket at path (its directory, mode 0755, where
// missing). The socket is 0666: any local process may ask, and each is
// answered for its own cgroup only. A socket nobody answers on (a server
// that died) is replaced; anything else at path is refused.
func Listen(path string) (*net.UnixListener, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != os.ModeSocket {
			return nil, fmt.Errorf("%s exists and is not a socket: remove it or give another path", path)
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			_ = c.Close()
			return nil, fmt.Errorf("%s: another server answers there", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, err
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o666); err != nil {
		_ = ln.Close()
		return nil, err
	}
	return ln, nil
}

// Serve answers on ln until ctx ends, then closes it (which removes the
// socket) and waits for the connections under way.
func (s *Server) Serve(ctx context.Context, ln *net.UnixListener) error {
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	slots := make(chan struct{}, orDefault(s.MaxConns, DefaultMaxConns))
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				time.Sleep(50 * time.Millisecond) // out of files: the open ones end within their timeout
				continue
			}
			_ = ln.Close()
			return err
		}
		select {
		case slots <- struct{}{}:
			wg.Go(func() {
				defer func() { <-slots }()
				s.handle(c)
			})
		default:
			_ = c.Close()
		}
	}
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func (s *Server) handle(c *net.UnixConn) {
	defer c.Close()
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	_ = c.SetDeadline(time.Now().Add(timeout))
	b, err := json.Marshal(s.respond(c))
	if err != nil {
		return
	}
	_, _ = c.Write(append(b, '\n'))
}

func (s *Server) respond(c *net.UnixConn) Response {
	pid, err := peerPID(c)
	if err != nil {
		return Response{Version: Version, Error: err.Error()}
	}
	alive := peerAlive(c)
	if _, err := ReadRequest(c); err != nil {
		return Response{Version: Version, Error: err.Error()}
	}
	var gpus []sampler.GPU
	if s.Latest != nil {
		gpus = s.Latest()
	}
	r := Answer(s.FS, pid, gpus)
	if !alive() {
		return Response{Version: Version, Error: "you exited while asking"}
	}
	return r
}

// Linux's SO_PEERPIDFD (6.5 and later) and pidfd_send_signal (5.1 and
// later, the same number on every architecture), which package syscall
// does not name.
const (
	soPeerPIDFD        = 77
	sysPidfdSendSignal = 424
)

// peerAlive says, once the answer is made, whether the peer that connected
// is still running: then its PID was not reused by another process while
// /proc was read under it. Where the kernel gives no pidfd of the peer it
// says yes (the PID alone, docs/security.md).
func peerAlive(c *net.UnixConn) func() bool {
	raw, err := c.SyscallConn()
	if err != nil {
		return func() bool { return true }
	}
	pidfd, ferr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) {
		pidfd, ferr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, soPeerPIDFD)
	}); err != nil || ferr != nil || pidfd < 0 {
		return func() bool { return true }
	}
	return func() bool {
		defer syscall.Close(pidfd)
		_, _, errno := syscall.Syscall6(sysPidfdSendSignal, uintptr(pidfd), 0, 0, 0, 0, 0)
		return errno != syscall.ESRCH
	}
}

// peerPID is the connecting process's PID in the server's PID namespace,
// as the kernel recorded it at connect (SO_PEERCRED): it cannot be forged
// by the peer.
func peerPID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, err
	}
	if cerr != nil {
		return 0, fmt.Errorf("SO_PEERCRED: %w", cerr)
	}
	if cred.Pid <= 0 {
		return 0, errors.New("your PID is not visible from the server's PID namespace")
	}
	return int(cred.Pid), nil
}
