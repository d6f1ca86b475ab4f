package safe

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// hostile is what a user on a shared node can put in argv: retitle the
// terminal (OSC 0 ... BEL) and clear it (CSI 2J).
const hostile = "python \x1b]0;PWNED\a train.py \x1b[2J"

func TestStringEscapesControls(t *testing.T) {
	for in, want := range map[string]string{
		"python train.py":  "python train.py",
		hostile:            "python ^[]0;PWNED^G train.py ^[[2J",
		"a\tb\nc\rd\x7f":   "a^Ib^Jc^Md^?",
		"csi8bit\u009b2J":  `csi8bit\x9b2J`,
		"bad\xffutf8":      `bad\xffutf8`,
		"rtl\u202eexe.txt": `rtl\u202eexe.txt`,
		"Grüße 日本 émoji 🚀": "Grüße 日本 émoji 🚀",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTextKeepsLayout(t *testing.T) {
	if got, want := Text("a\tb\n"+hostile+"\n"), "a\tb\npython ^[]0;PWNED^G train.py ^[[2J\n"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func TestStringNoAllocWhenClean(t *testing.T) {
	s := strings.Repeat("python train.py --rank 0 ", 8)
	if n := testing.AllocsPerRun(100, func() { _ = String(s) }); n != 0 {
		t.Errorf("clean string allocated %v times", n)
	}
}

func TestCleanSnapshotCopiesOnWrite(t *testing.T) {
	p := &sampler.Proc{PID: 7, User: "mallory\x1b[2J", Cmdline: hostile}
	s := sampler.Snapshot{
		Node:     sampler.Node{Hostname: "node\a"},
		GPUs:     []sampler.GPU{{Index: 0, Name: "H200"}, {Index: 1, Procs: []sampler.GPUProc{{PID: 7, Host: p}}}},
		Host:     &sampler.Host{Procs: map[int]*sampler.Proc{7: p}},
		Problems: []string{"fine", "x\x1b]52;c;ZXZpbA==\a"},
	}
	c := Clean(s)
	if got := c.GPUs[1].Procs[0].Host.Cmdline; got != "python ^[]0;PWNED^G train.py ^[[2J" {
		t.Errorf("cmdline = %q", got)
	}
	if c.Host.Procs[7].User != "mallory^[[2J" || c.Node.Hostname != "node^G" || c.Problems[1] != "x^[]52;c;ZXZpbA==^G" {
		t.Errorf("not cleaned: %q %q %q", c.Host.Procs[7].User, c.Node.Hostname, c.Problems[1])
	}
	// The original is shared with other goroutines: never written.
	if p.Cmdline != hostile || s.Node.Hostname != "node\a" || s.Problems[1][1] != 0x1b {
		t.Error("Clean modified its input")
	}
	if &c.GPUs[0] == &s.GPUs[0] {
		t.Error("a changed slice must be copied")
	}
	if c.GPUs[0].Name != "H200" || c.Time != s.Time || c.GPUs[1].Procs[0].PID != 7 {
		t.Error("Clean lost data")
	}
	clean := sampler.Snapshot{GPUs: []sampler.GPU{{Name: "H200"}}}
	if c := Clean(clean); &c.GPUs[0] != &clean.GPUs[0] {
		t.Error("a clean snapshot must be shared, not copied")
	}
}

// TestCleanKeepsSharedPointersShared: a process is both in Host.Procs and
// under its GPU; after cleaning, both still point at one (cleaned) Proc.
func TestCleanKeepsSharedPointersShared(t *testing.T) {
	s := benchSnapshot(true)
	s.GPUs[0].Procs[0].Host.Cmdline = hostile // PID 1000, shared with Host.Procs[1000]
	c := Clean(s)
	if c.GPUs[0].Procs[0].Host != c.Host.Procs[1000] {
		t.Error("a shared process was copied twice")
	}
	if c.Host.Procs[1000].Cmdline == hostile || c.Host.Procs[1001] != s.Host.Procs[1001] {
		t.Error("want the hostile process cleaned and the others shared with the input")
	}
	m := Clean(map[string]any{"k\x1b": "v\a", "ok": 1})
	if m["k^["] != "v^G" || m["ok"] != 1 || len(m) != 2 {
		t.Errorf("map keys and interface values: %v", m)
	}
}

// TestCleanWithKeptTypes: a memo of types kept across calls cleans as a
// fresh one, hostile and clean snapshots in turn, and shares what needs
// no change.
func TestCleanWithKeptTypes(t *testing.T) {
	ts := NewTypes()
	for i := range 4 {
		hostile := i%2 == 1
		s := benchSnapshot(hostile)
		got, want := CleanWith(ts, s), Clean(s)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("call %d (hostile %v): kept types clean differently", i, hostile)
		}
		if cmd := got.Host.Procs[1050].Cmdline; hostile == (cmd == s.Host.Procs[1050].Cmdline) {
			t.Fatalf("call %d (hostile %v): cmdline %q", i, hostile, cmd)
		}
		if !hostile && got.Host != s.Host {
			t.Fatalf("call %d: a clean host was copied", i)
		}
	}
	if len(ts.strs) == 0 {
		t.Fatal("nothing learnt")
	}
}

// TestCleanWithRemembersParts: snapshot after snapshot, CleanWith cleans as
// Clean does, a part the snapshot before shared (a hostile process under a
// GPU) is answered with the same cleaned copy, not walked and copied
// again, and a part that is new (a process list, a new process) is cleaned.
func TestCleanWithRemembersParts(t *testing.T) {
	ts := NewTypes()
	s := benchSnapshot(true)
	s.GPUs[0].Procs[0].Host.Cmdline = hostile
	first := CleanWith(ts, s)
	for i := range 5 {
		s = nextTick(s)
		if i == 3 { // a new process, hostile, and a new n/a reason
			s.GPUs[1].Procs[0].Host = &sampler.Proc{PID: 5, Name: "evil\x1b[2J"}
			s.GPUs[1].NA = map[string]string{"fan": "no\a"}
		}
		if i == 4 { // something else cleaned in between: walked afresh, the same
			_ = CleanWith(ts, []string{"x\a"})
		}
		got, want := CleanWith(ts, s), Clean(s)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("tick %d: remembered parts clean differently:\n%+v\nwant\n%+v", i, got.GPUs[1], want.GPUs[1])
		}
		if p := got.GPUs[0].Procs[0].Host; (i < 4 && p != first.GPUs[0].Procs[0].Host) || p.Cmdline == hostile {
			t.Fatalf("tick %d: the shared hostile process was walked again or not cleaned: %q", i, p.Cmdline)
		}
		if &got.GPUs[2].NVLinks[0] != &s.GPUs[2].NVLinks[0] {
			t.Fatalf("tick %d: clean NVLinks were copied", i)
		}
	}
	if n := len(ts.seen) + len(ts.before); n == 0 || n > 64 {
		t.Fatalf("the memo holds %d parts: want the last two calls'", n)
	}
}
