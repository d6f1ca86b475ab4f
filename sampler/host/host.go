// Package host is the real sampler.HostSource: node CPU, memory, disk and
// network from gopsutil, and the GPU processes with their descendants from
// /proc, found through a process tree kept up to date by listing /proc each
// tick and reading only new processes (see procTree).
package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"slices"
	"sync"
	"time"

	"github.com/shirou/gopsutil/v4/common"
	"github.com/shirou/gopsutil/v4/cpu"
	gohost "github.com/shirou/gopsutil/v4/host"

	"github.com/gpuscope/gpuscope/sampler"
)

// Options configures a Source. The zero value reads the real machine.
type Options struct {
	// ProcRoot and SysRoot are where procfs and sysfs are mounted ("/proc",
	// "/sys" when empty): a container that mounts the host's at /host/proc
	// passes that, and tests pass a fake tree.
	ProcRoot string
	SysRoot  string
	// LookupUser maps a numeric uid to a login name (os/user when nil). A
	// failed lookup shows the number.
	LookupUser func(uid string) (string, error)
	// BootTime anchors process start times (read from ProcRoot when zero).
	BootTime time.Time
	// TicksPerSec is the kernel's USER_HZ, the unit of /proc/PID/stat CPU
	// times (gopsutil's sysconf(_SC_CLK_TCK) reading when zero).
	TicksPerSec float64
}

// Source reads the host. It is safe for use from several goroutines, though
// the sampler calls it from one.
type Source struct {
	procRoot    string
	sysRoot     string
	ctx         context.Context // carries ProcRoot/SysRoot to gopsutil
	lookupUser  func(string) (string, error)
	ticksPerSec float64
	pageSize    int

	mu       sync.Mutex
	bootTime time.Time
	marks    nodeMarks
	procs    procCache
	tree     procTree
	statBuf  []byte
}

var _ sampler.HostSource = (*Source)(nil)

// New returns a Source; it reads nothing until the first Sample.
func New(opts Options) *Source {
	s := &Source{
		procRoot:    opts.ProcRoot,
		sysRoot:     opts.SysRoot,
		lookupUser:  opts.LookupUser,
		ticksPerSec: opts.TicksPerSec,
		pageSize:    defaultPageSize(),
		bootTime:    opts.BootTime,
		procs:       newProcCache(),
		tree:        newProcTree(),
		statBuf:     make([]byte, statBufSize),
	}
	if s.procRoot == "" {
		s.procRoot = "/proc"
	}
	if s.sysRoot == "" {
		s.sysRoot = "/sys"
	}
	if s.lookupUser == nil {
		s.lookupUser = func(uid string) (string, error) {
			u, err := user.LookupId(uid)
			if err != nil {
				return "", err
			}
			return u.Username, nil
		}
	}
	if s.ticksPerSec <= 0 {
		s.ticksPerSec = cpu.ClocksPerSec
	}
	s.ctx = context.WithValue(context.Background(), common.EnvKey, common.EnvMap{
		common.HostProcEnvKey: s.procRoot,
		common.HostSysEnvKey:  s.sysRoot,
	})
	return s
}

// Sample reads the host at now. Rates (CPU, disk, network, per-process CPU)
// compare with the previous call and are n/a on the first. gpuPIDs and all
// their descendants are returned in Host.Procs; PIDs this namespace lacks are
// left out, and Host.ForeignPIDs is set when every one of them is missing.
// The error is non-nil only when the process list cannot be read at all; the
// node-level readings are still returned with it.
func (s *Source) Sample(now time.Time, gpuPIDs []int) (*sampler.Host, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := &sampler.Host{}
	s.readNode(s.ctx, now, h)
	err := s.readProcs(now, gpuPIDs, h)
	return h, err
}

// readProcs fills h.Procs with the GPU processes and their descendants. The
// process tree is refreshed even with no GPU processes, so the tick on which
// a job starts stays cheap.
func (s *Source) readProcs(now time.Time, gpuPIDs []int, h *sampler.Host) error {
	dir, err := os.Open(s.procRoot)
	if err != nil {
		return fmt.Errorf("reading processes: %w", err)
	}
	defer dir.Close()
	if err := s.tree.refresh(dir, s.statBuf); err != nil {
		return err
	}
	if len(s.tree.procs) == 0 {
		return errors.New("reading processes: " + s.procRoot + " lists no process")
	}
	if len(gpuPIDs) == 0 {
		s.procs.evictExcept(nil)
		return nil
	}
	if s.bootTime.IsZero() {
		if secs, err := gohost.BootTimeWithContext(s.ctx); err == nil {
			s.bootTime = time.Unix(int64(secs), 0)
		}
	}

	dirfd := int(dir.Fd())
	shown := s.tree.descendants(gpuPIDs)
	procs := make(map[int]*sampler.Proc, len(shown))
	ppids := make(map[int]int, len(shown))
	keep := make(map[procKey]bool, len(shown))
	for _, pid := range shown {
		p, key, ok := s.readProc(dirfd, pid, now, s.statBuf)
		if !ok {
			continue // exited since the listing
		}
		s.tree.setParent(pid, p.PPID)
		keep[key] = true
		procs[pid] = p
		ppids[pid] = p.PPID
	}
	s.procs.evictExcept(keep)
	h.Procs = reachable(procs, childrenOf(ppids), gpuPIDs)
	h.ForeignPIDs = !slices.ContainsFunc(gpuPIDs, func(pid int) bool {
		_, ok := h.Procs[pid]
		return ok
	})
	return nil
}

// reachable keeps the processes reachable from roots through children (a
// process reparented away between the listing and its read drops out) and
// sets each one's Children, so every listed child is a key of the result.
func reachable(procs map[int]*sampler.Proc, children map[int][]int, roots []int) map[int]*sampler.Proc {
	out := make(map[int]*sampler.Proc, len(procs))
	var queue []int
	for _, r := range roots {
		if p, ok := procs[r]; ok && out[r] == nil {
			out[r] = p
			queue = append(queue, r)
		}
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if out[c] == nil {
				out[c] = procs[c]
				queue = append(queue, c)
			}
			out[pid].Children = append(out[pid].Children, c)
		}
	}
	return out
}
