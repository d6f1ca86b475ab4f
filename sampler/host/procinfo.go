package host

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gpuscope/gpuscope/sampler"
)

// maxCmdline bounds the command line kept per process (the brief asks ~512:
// enough for "python train.py --flags ...", small in a recording).
const maxCmdline = 512

// cmdlineBufSize is how much of /proc/PID/cmdline is read: a little more than
// maxCmdline so truncation can be seen.
const cmdlineBufSize = 1024

// cgroupBufSize bounds one read of /proc/PID/cgroup: 13 v1 hierarchies with
// kubepods paths of ~200 bytes each fit.
const cgroupBufSize = 4096

// procKey identifies one process over its lifetime: PIDs are reused, PID plus
// start time is not.
type procKey struct {
	pid   int
	start uint64 // start ticks after boot
}

// procStatic is what never changes for a process, read once and cached.
// A process read while young (forked less than execGrace ago) is read
// again next tick: a child forked but not yet exec'd shows its parent's
// command line, and exec keeps the PID and start time the cache is keyed by.
type procStatic struct {
	user, cmdline, container, podUID string
	young                            bool
}

// execGrace is how long after its fork a process's command line is not
// trusted yet. Fork to exec takes microseconds to milliseconds; a second
// covers a loaded machine (TestSampleRealProcessTree failed under
// `make test` when the first read came before the exec), and a second
// more the boot time's rounding down to whole seconds (/proc/stat btime),
// which makes every process look up to a second older than it is.
const execGrace = 2 * time.Second

// cpuMark is a process's cumulative CPU time at one tick.
type cpuMark struct {
	ticks uint64
	at    time.Time
}

// procCache keeps per-process state between ticks for the processes gpuscope
// shows. Entries for processes not shown this tick are dropped, so its size is
// bounded by the number of GPU processes and their descendants.
type procCache struct {
	static map[procKey]procStatic
	cpu    map[procKey]cpuMark
	users  map[uint64]string // uid -> name; uids are few and stable
}

func newProcCache() procCache {
	return procCache{
		static: map[procKey]procStatic{},
		cpu:    map[procKey]cpuMark{},
		users:  map[uint64]string{},
	}
}

// evictExcept drops every cached process not in keep.
func (c *procCache) evictExcept(keep map[procKey]bool) {
	for k := range c.static {
		if !keep[k] {
			delete(c.static, k)
		}
	}
	for k := range c.cpu {
		if !keep[k] {
			delete(c.cpu, k)
		}
	}
}

// readProc reads one process. It reports false when the process is gone.
// Fields it cannot read (another user's files, a zombie's empty cmdline)
// stay empty or n/a.
func (s *Source) readProc(dirfd, pid int, now time.Time, buf []byte) (*sampler.Proc, procKey, bool) {
	dirName := strconv.Itoa(pid)
	n, err := readAt(dirfd, dirName+"/stat", buf)
	if err != nil {
		return nil, procKey{}, false
	}
	st, err := parseStat(buf[:n])
	if err != nil {
		return nil, procKey{}, false
	}
	key := procKey{pid: pid, start: st.startTicks}
	p := &sampler.Proc{
		PID:     pid,
		PPID:    st.ppid,
		Name:    st.comm,
		State:   string(st.state),
		RSS:     sampler.Some(float64(st.rssPages) * float64(s.pageSize)),
		Threads: st.threads,
	}
	if !s.bootTime.IsZero() {
		p.Start = s.bootTime.Add(ticksToDuration(st.startTicks, s.ticksPerSec))
	}
	if prev, ok := s.procs.cpu[key]; ok {
		if dt := now.Sub(prev.at).Seconds(); dt > 0 && st.cpuTicks >= prev.ticks {
			cpuSec := float64(st.cpuTicks-prev.ticks) / s.ticksPerSec
			p.CPU = sampler.Some(100 * cpuSec / dt)
		}
	}
	s.procs.cpu[key] = cpuMark{ticks: st.cpuTicks, at: now}

	static, ok := s.procs.static[key]
	if !ok || static.young {
		static = s.readStatic(dirfd, dirName)
		static.young = !p.Start.IsZero() && now.Sub(p.Start) < execGrace
		s.procs.static[key] = static
	}
	p.User, p.Cmdline, p.Container, p.PodUID = static.user, static.cmdline, static.container, static.podUID
	return p, key, true
}

func ticksToDuration(ticks uint64, perSec float64) time.Duration {
	return time.Duration(float64(ticks) / perSec * float64(time.Second))
}

// readStatic reads the per-process facts that do not change over its life.
func (s *Source) readStatic(dirfd int, dirName string) procStatic {
	var st procStatic
	cmd := make([]byte, cmdlineBufSize)
	if n, err := readAt(dirfd, dirName+"/cmdline", cmd); err == nil {
		st.cmdline = joinCmdline(cmd[:n], maxCmdline)
	}
	buf := make([]byte, cgroupBufSize) // status (~1.5 KiB), then cgroup
	if n, err := readAt(dirfd, dirName+"/status", buf); err == nil {
		if uid, ok := realUID(buf[:n]); ok {
			st.user = s.userName(uid)
		}
	}
	if n, err := readAt(dirfd, dirName+"/cgroup", buf); err == nil {
		st.container = containerID(string(buf[:n]))
		st.podUID = podUID(string(buf[:n]))
	}
	return st
}

// userName maps a uid to a login name through the injected lookup, falling
// back to the number (a uid with no passwd entry, common in containers).
func (s *Source) userName(uid uint64) string {
	if name, ok := s.procs.users[uid]; ok {
		return name
	}
	id := strconv.FormatUint(uid, 10)
	name := id
	if s.lookupUser != nil {
		if n, err := s.lookupUser(id); err == nil && n != "" {
			name = n
		}
	}
	s.procs.users[uid] = name
	return name
}

// realUID finds the real uid, the first number on the "Uid:" line of
// /proc/PID/status (proc(5)): the user who started the process.
func realUID(status []byte) (uint64, bool) {
	_, after, ok := bytes.Cut(status, []byte("\nUid:"))
	if !ok {
		return 0, false
	}
	fields := bytes.Fields(after)
	if len(fields) == 0 {
		return 0, false
	}
	uid, err := strconv.ParseUint(string(fields[0]), 10, 32)
	return uid, err == nil
}

// joinCmdline turns NUL-separated argv into one line cut to at most limit
// bytes on a UTF-8 boundary, with "…" marking the cut.
func joinCmdline(raw []byte, limit int) string {
	raw = bytes.TrimRight(raw, "\x00")
	s := strings.ReplaceAll(string(raw), "\x00", " ")
	if len(s) <= limit {
		return s
	}
	const ellipsis = "…"
	cut := limit - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}

// defaultPageSize is the kernel's page size, for RSS in bytes.
func defaultPageSize() int { return os.Getpagesize() }
