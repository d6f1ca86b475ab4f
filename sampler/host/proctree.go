package host

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"syscall"
)

// statBufSize bounds one read of /proc/PID/stat: the line holds a 16-byte comm
// (TASK_COMM_LEN, or 64 for kernel workqueue names) and 52 numbers, under
// 1 KiB (proc(5) field widths).
const statBufSize = 1024

// procTree knows the parent of every process in the PID namespace, kept
// across ticks. Reading /proc/PID/stat costs ~10-17 µs per process on the
// reference VM (open + generate + close), ~18 ms for 1,000 processes: over the
// 10 ms host budget on its own (docs/benchmarks.md). A parent PID changes only when
// the parent exits (the child is reparented), so after the first tick only
// new PIDs and PIDs whose parent vanished are read; listing /proc is ~0.1 ms.
// bench_test.go measures both.
type procTree struct {
	procs map[int]*treeEntry
	gen   uint64 // tick counter: entries not listed this tick are gone
}

type treeEntry struct {
	ppid int
	gen  uint64
	// parentAbsent is set once the parent is known not to be visible here
	// (PID 1's parent 0, or hidden by hidepid): checking again cannot help,
	// since a visible parent cannot reappear under the same PID.
	parentAbsent bool
}

func newProcTree() procTree { return procTree{procs: map[int]*treeEntry{}} }

// refresh brings the tree up to date with dir (the proc root). Processes
// that vanish mid-read are dropped. Only an unreadable dir is an error.
func (t *procTree) refresh(dir *os.File, buf []byte) error {
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return fmt.Errorf("listing processes in %s: %w", dir.Name(), err)
	}
	dirfd := int(dir.Fd())
	t.gen++
	for _, name := range names {
		pid, ok := atoiPID(name)
		if !ok {
			continue
		}
		if e, ok := t.procs[pid]; ok {
			e.gen = t.gen
			continue
		}
		if ppid, ok := readPPID(dirfd, name, buf); ok {
			t.procs[pid] = &treeEntry{ppid: ppid, gen: t.gen}
		}
	}
	for pid, e := range t.procs {
		if e.gen != t.gen {
			delete(t.procs, pid)
		}
	}
	for pid, e := range t.procs {
		if e.parentAbsent || t.procs[e.ppid] != nil {
			continue
		}
		ppid, ok := readPPID(dirfd, itoa(uint64(pid)), buf)
		if !ok {
			delete(t.procs, pid) // exited since the listing
			continue
		}
		e.ppid = ppid
		e.parentAbsent = t.procs[ppid] == nil
	}
	return nil
}

// readPPID reads the parent PID from /proc/<name>/stat.
func readPPID(dirfd int, name string, buf []byte) (int, bool) {
	n, err := readAt(dirfd, name+"/stat", buf)
	if err != nil {
		return 0, false // exited since the listing, or hidden (hidepid=2)
	}
	return parsePPID(buf[:n])
}

// setParent records a parent PID learnt from a fresher read of a process.
func (t *procTree) setParent(pid, ppid int) {
	if e, ok := t.procs[pid]; ok && e.ppid != ppid {
		e.ppid = ppid
		e.parentAbsent = t.procs[ppid] == nil
	}
}

// descendants returns the roots present in the tree and all their
// descendants, each once. It sweeps the parent links until nothing is added,
// once per generation of the deepest tree (a few passes over ~1,000 entries,
// no per-tick index to build).
func (t *procTree) descendants(roots []int) []int {
	in := make(map[int]bool, len(roots))
	var out []int
	for _, r := range roots {
		if t.procs[r] != nil && !in[r] {
			in[r] = true
			out = append(out, r)
		}
	}
	for added := len(out) > 0; added; {
		added = false
		for pid, e := range t.procs {
			if in[e.ppid] && !in[pid] {
				in[pid] = true
				out = append(out, pid)
				added = true
			}
		}
	}
	return out
}

// childrenOf maps each shown process to its shown direct children, ascending.
func childrenOf(ppids map[int]int) map[int][]int {
	kids := map[int][]int{}
	for pid, ppid := range ppids {
		if _, ok := ppids[ppid]; ok {
			kids[ppid] = append(kids[ppid], pid)
		}
	}
	for _, k := range kids {
		slices.Sort(k)
	}
	return kids
}

// readAt reads up to len(buf) bytes of the file at path under dirfd with raw
// syscalls, skipping os.File's allocations at ~1,000 files on the first tick
// (bench_test.go: scan/raw-syscalls vs scan/os.ReadFile).
func readAt(dirfd int, path string, buf []byte) (int, error) {
	fd, err := openat(dirfd, path)
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, buf)
	for errors.Is(err, syscall.EINTR) {
		n, err = syscall.Read(fd, buf)
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}

func openat(dirfd int, path string) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if !errors.Is(err, syscall.EINTR) {
			return fd, err
		}
	}
}

// atoiPID parses a /proc entry name that is a PID; other entries ("self",
// "meminfo" ...) report false.
func atoiPID(s string) (int, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }
