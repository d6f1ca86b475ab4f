package procsock

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ProcFS is what the server reads of /proc, behind an interface so tests
// can fake a node's processes (ProcDir is the real one).
type ProcFS interface {
	// Cgroup is the text of /proc/PID/cgroup.
	Cgroup(pid int) (string, error)
	// NSpid is the NSpid line of /proc/PID/status: the process's PID in
	// this PID namespace first, then in each nested one down to its own.
	NSpid(pid int) ([]int, error)
	// PIDNamespace identifies the PID namespace up levels above the
	// process's own (0: its own).
	PIDNamespace(pid, up int) (NS, error)
}

// NS identifies a namespace: its file's device and inode.
type NS struct{ Dev, Ino uint64 }

// ProcDir reads a /proc mount (normally "/proc", the server's PID namespace's).
type ProcDir struct{ Root string }

// Cgroup reads /proc/PID/cgroup.
func (p ProcDir) Cgroup(pid int) (string, error) {
	b, err := os.ReadFile(fmt.Sprintf("%s/%d/cgroup", p.Root, pid))
	return string(b), err
}

// NSpid reads the NSpid line of /proc/PID/status (Linux 4.1 and later).
func (p ProcDir) NSpid(pid int) ([]int, error) {
	b, err := os.ReadFile(fmt.Sprintf("%s/%d/status", p.Root, pid))
	if err != nil {
		return nil, err
	}
	return parseNSpid(b)
}

func parseNSpid(status []byte) ([]int, error) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "NSpid:")
		if !ok {
			continue
		}
		var pids []int
		for _, f := range strings.Fields(rest) {
			n, err := strconv.Atoi(f)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("NSpid %q is not a list of PIDs", rest)
			}
			pids = append(pids, n)
		}
		if len(pids) == 0 {
			break
		}
		return pids, nil
	}
	return nil, errors.New("no NSpid line (Linux 4.1 or later has one)")
}

// nsGetParent is ioctl_ns(2)'s NS_GET_PARENT: _IO(0xb7, 0x2).
const nsGetParent = 0xb702

// PIDNamespace opens /proc/PID/ns/pid and walks up levels with
// NS_GET_PARENT (Linux 4.9 and later).
func (p ProcDir) PIDNamespace(pid, up int) (NS, error) {
	fd, err := syscall.Open(fmt.Sprintf("%s/%d/ns/pid", p.Root, pid), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return NS{}, err
	}
	for ; up > 0; up-- {
		parent, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), nsGetParent, 0)
		syscall.Close(fd)
		if errno != 0 {
			return NS{}, fmt.Errorf("NS_GET_PARENT: %w", errno)
		}
		fd = int(parent)
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return NS{}, err
	}
	return NS{Dev: st.Dev, Ino: st.Ino}, nil
}
