package host

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/shirou/gopsutil/v4/cpu"

	"github.com/gpuscope/gpuscope/sampler"
)

// statLine builds a /proc/PID/stat line with the fields parseStat reads set.
func statLine(pid int, comm string, state byte, ppid int, utime, stime uint64, threads int, start, rss uint64) string {
	f := make([]string, 52) // fields 1..52 of proc(5); index = field-1
	for i := range f {
		f[i] = "0"
	}
	f[0] = itoa(uint64(pid))
	f[1] = "(" + comm + ")"
	f[2] = string(state)
	f[3] = itoa(uint64(ppid))
	f[13], f[14] = itoa(utime), itoa(stime)
	f[19] = itoa(uint64(threads))
	f[21] = itoa(start)
	f[23] = itoa(rss)
	return strings.Join(f, " ") + "\n"
}

func TestParseStat(t *testing.T) {
	// comm may hold spaces and parentheses; the last ')' ends it.
	line := statLine(42, "pt_data_worker) (0", 'D', 7, 120, 30, 5, 98765, 2048)
	st, err := parseStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := procStat{comm: "pt_data_worker) (0", state: 'D', ppid: 7, cpuTicks: 150, threads: 5, startTicks: 98765, rssPages: 2048}
	if st != want {
		t.Errorf("parseStat = %+v, want %+v", st, want)
	}
	if ppid, ok := parsePPID([]byte(line)); !ok || ppid != 7 {
		t.Errorf("parsePPID = %d, %v; want 7, true", ppid, ok)
	}
	for _, bad := range []string{"", "42 (x", "42 (x) S", "42 (x) S 1 2 3", strings.Replace(line, " 120 ", " x ", 1)} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) succeeded", bad)
		}
	}
	if _, ok := parsePPID([]byte("42 (x) S")); ok {
		t.Error("parsePPID accepted a line without a ppid")
	}
}

func TestJoinCmdline(t *testing.T) {
	if got := joinCmdline([]byte("python\x00train.py\x00--workers=8\x00"), 512); got != "python train.py --workers=8" {
		t.Errorf("joinCmdline = %q", got)
	}
	long := strings.Repeat("é", 400) // 800 bytes of 2-byte runes
	got := joinCmdline([]byte(long), 512)
	if len(got) > 512 || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Errorf("truncated cmdline: len %d, valid %v, %q...", len(got), utf8.ValidString(got), got[len(got)-8:])
	}
}

func TestRealUID(t *testing.T) {
	status := "Name:\tsleep\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t1000\t0\t0\t0\nGid:\t1000\t1000\t1000\t1000\n"
	if uid, ok := realUID([]byte(status)); !ok || uid != 1000 {
		t.Errorf("realUID = %d, %v; want 1000, true", uid, ok)
	}
	if _, ok := realUID([]byte("Name:\tx\n")); ok {
		t.Error("realUID found a uid in a status without Uid:")
	}
}

func TestCPURates(t *testing.T) {
	prev := []cpu.TimesStat{{User: 100, Idle: 100}, {User: 0, Idle: 100}}
	cur := []cpu.TimesStat{
		{User: 150, System: 25, Idle: 115, Iowait: 10}, // 100 s elapsed: 75 busy, 10 iowait
		{User: 0, Idle: 200},                           // 100 s elapsed: idle
	}
	var h sampler.Host
	cpuRates(prev, cur, &h)
	if len(h.CPUs) != 2 || h.CPUs[0] != 75 || h.CPUs[1] != 0 {
		t.Errorf("CPUs = %v, want [75 0]", h.CPUs)
	}
	if h.CPU != sampler.Some(37.5) || h.IOWait != sampler.Some(5) {
		t.Errorf("CPU = %v, IOWait = %v; want 37.5, 5", h.CPU, h.IOWait)
	}
}

func TestRates(t *testing.T) {
	prev := map[string]byteCounter{"sda": {in: 1000, out: 0}, "nvme0n1": {in: 0, out: 500}, "gone": {in: 9, out: 9}}
	cur := map[string]byteCounter{"sda": {in: 3000, out: 0}, "nvme0n1": {in: 0, out: 4500}, "new": {in: 1 << 40, out: 0}}
	in, out := rates(prev, cur, 2*time.Second)
	if in != sampler.Some(1000) || out != sampler.Some(2000) {
		t.Errorf("rates = %v, %v; want 1000, 2000 (new and gone devices ignored)", in, out)
	}
	reset := map[string]byteCounter{"sda": {in: 10, out: 0}}
	if in, _ := rates(prev, reset, time.Second); in.OK {
		t.Errorf("rate across a counter reset = %v, want n/a", in)
	}
	if in, _ := rates(nil, cur, time.Second); in.OK {
		t.Error("first reading gave a rate")
	}
	if in, _ := rates(prev, cur, 0); in.OK {
		t.Error("zero interval gave a rate")
	}
}
