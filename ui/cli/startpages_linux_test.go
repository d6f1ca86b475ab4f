package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

func TestReadOnlyFileRangesKeepsWhatWouldBeLost(t *testing.T) {
	smaps := `00400000-00411000 r--p 00000000 fe:00 123 /usr/bin/gpuscope
Rss:                  68 kB
Anonymous:             0 kB
00411000-00c9a000 r-xp 00011000 fe:00 123 /usr/bin/gpuscope
Anonymous:             0 kB
01633000-01634000 r--p 01232000 fe:00 123 /usr/bin/gpuscope
Anonymous:             4 kB
01634000-016e7000 rw-p 01233000 fe:00 123 /usr/bin/gpuscope
Anonymous:             0 kB
7f0000000000-7f0000001000 r--s 00000000 00:05 9 /dev/shm/x
Anonymous:             0 kB
7f0000002000-7f0000003000 r--p 00000000 00:00 0
Anonymous:             0 kB
7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0 [vdso]
Anonymous:             0 kB
7f1000000000-7f1000028000 r--p 00000000 fe:00 77 /usr/lib/x86_64-linux-gnu/libc.so.6
Anonymous:             0 kB
`
	got := readOnlyFileRanges([]byte(smaps))
	want := [][2]uintptr{{0x400000, 0x411000}, {0x411000, 0xc9a000}, {0x7f1000000000, 0x7f1000028000}}
	if len(got) != len(want) {
		t.Fatalf("ranges %x, want %x (the relocations made read-only, the writable, shared and anonymous mappings kept)", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("range %d %x, want %x", i, got[i], want[i])
		}
	}
}

// A read-only file mapping touched as the start touches the binary is
// unmapped, and reads the same bytes when touched again.
func TestReleaseStartPagesUnmapsReadOnlyFilePages(t *testing.T) {
	const size = 1 << 20
	content := bytes.Repeat([]byte("gpuscope"), size/8)
	name := filepath.Join(t.TempDir(), "pages")
	if err := os.WriteFile(name, content, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(m)
	sum := 0
	for i := 0; i < size; i += 4096 {
		sum += int(m[i])
	}
	if sum != size/4096*int('g') {
		t.Fatalf("read %d from the mapping's pages, want %d", sum, size/4096*int('g'))
	}
	addr := uintptr(unsafe.Pointer(&m[0]))
	if rss := mappedKB(t, addr); rss == 0 {
		t.Skip("the kernel did not map the touched file pages; nothing to release")
	}
	releaseStartPages()
	if rss := mappedKB(t, addr); rss != 0 {
		t.Fatalf("%d KB of the read-only file mapping still mapped after releaseStartPages, want 0", rss)
	}
	if !bytes.Equal(m, content) {
		t.Fatal("the mapping reads other bytes after its pages were released")
	}
}

// mappedKB is smaps' Rss of the mapping that starts at addr.
func mappedKB(t *testing.T, addr uintptr) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		if lo, _, ok := strings.Cut(sc.Text(), "-"); ok && !strings.Contains(lo, ":") {
			in = lo == strconv.FormatUint(uint64(addr), 16)
			continue
		}
		if rest, ok := strings.CutPrefix(sc.Text(), "Rss:"); ok && in {
			kb, err := strconv.Atoi(strings.Fields(rest)[0])
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatalf("no mapping at %#x in /proc/self/smaps", addr)
	return 0
}

// BenchmarkReleaseStartPages is one of the dashboard's three releases in
// the test binary: smaps read and parsed, each read-only file mapping
// advised (the faults that map back what runs afterwards are not in it:
// docs/benchmarks.md, "The dashboard's memory: the start's pages", counts
// them).
func BenchmarkReleaseStartPages(b *testing.B) {
	for b.Loop() {
		releaseStartPages()
	}
}
