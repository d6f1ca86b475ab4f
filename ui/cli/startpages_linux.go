package cli

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// releaseStartPages unmaps this process's read-only file pages: the
// binary's code and tables, libc's. The kernel maps the executable a
// page-cache folio at a time (~64 KB here), so the command line, package
// initialisation and the pre-roll leave ~14 MB of it mapped that the
// dashboard never runs again; what it does run is mapped again on its
// first touch, a minor fault each. The pages stay in the page cache: this
// lowers the process's RSS, not the machine's used memory, and frees
// nothing another process shares (docs/benchmarks.md, "The dashboard's
// memory: the start's pages").
func releaseStartPages() {
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return
	}
	for _, r := range readOnlyFileRanges(smaps) {
		syscall.Syscall(syscall.SYS_MADVISE, r[0], r[1]-r[0], syscall.MADV_DONTNEED)
	}
}

// readOnlyFileRanges returns smaps' private mappings of a file that are
// not writable and hold no anonymous page. Dropping those loses nothing,
// where a page copied on write (relocations made read-only afterwards)
// would go back to the file's bytes.
func readOnlyFileRanges(smaps []byte) (out [][2]uintptr) {
	var cur [2]uintptr
	candidate := false
	for len(smaps) > 0 {
		var l []byte
		l, smaps, _ = bytes.Cut(smaps, []byte("\n"))
		if n, ok := bytes.CutPrefix(l, []byte("Anonymous:")); ok {
			if candidate && string(bytes.TrimSpace(n)) == "0 kB" {
				out = append(out, cur)
			}
			candidate = false
			continue
		}
		// A mapping's first line: "lo-hi perms offset dev inode path".
		fs := bytes.Fields(l)
		if len(fs) < 5 || len(fs[1]) != 4 {
			continue
		}
		lo, hi, _ := bytes.Cut(fs[0], []byte("-"))
		a, err1 := strconv.ParseUint(string(lo), 16, 64)
		b, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		p := fs[1]
		cur = [2]uintptr{uintptr(a), uintptr(b)}
		candidate = len(fs) > 5 && fs[5][0] == '/' && p[0] == 'r' && p[1] != 'w' && p[3] == 'p'
	}
	return out
}
