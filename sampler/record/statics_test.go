package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// staticsSnapshot is realisticSnapshot with a training process and its
// DataLoader workers on the host, as the host source fills them.
func staticsSnapshot(i int, procs ...sampler.Proc) sampler.Snapshot {
	s := realisticSnapshot(i)
	s.Host.Procs = map[int]*sampler.Proc{}
	for _, p := range procs {
		p.CPU, p.RSS = sampler.Some(float64(i%97)), sampler.Some(float64(1e9+i))
		s.Host.Procs[p.PID] = &p
	}
	sampler.JoinProcs(&s)
	return s
}

var (
	start1  = time.Date(2026, 5, 1, 11, 0, 0, 0, time.UTC)
	trainer = sampler.Proc{PID: 4000, PPID: 1, User: "alice", Name: "python", Cmdline: "python train.py --config a.yaml",
		State: "R", Threads: 76, Start: start1, Container: "3f2a", Children: []int{4001}}
	worker = sampler.Proc{PID: 4001, PPID: 4000, User: "alice", Name: "python", Cmdline: "python train.py --config a.yaml",
		State: "S", Threads: 4, Start: start1.Add(time.Second), Container: "3f2a"}
	// reused is PID 4001 again, now another user's process.
	reused = sampler.Proc{PID: 4001, PPID: 1, User: "bob", Name: "bash", Cmdline: "bash -l", State: "S", Threads: 1,
		Start: start1.Add(time.Hour)}
)

// writeEntries writes es to a plain recording and returns its lines.
func writeEntries(t *testing.T, es []Entry) (path string, lines []string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "r.jsonl")
	w, err := Create(path, HeaderFor(es[0].Snapshot, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// Static GPU and process fields and steady GPU readings are written once
// per change, yet every entry reads back equal to what was written: across
// a changed GPU field or reading,
// a changed process field, a process that leaves and comes back, and a
// reused PID, which must not inherit the old process's command line.
func TestStaticsWrittenOnceReadBackEqual(t *testing.T) {
	renamed := worker
	renamed.Name, renamed.Threads = "pt_data_worker", 5
	var want []Entry
	// Findings differ per line: a reader that kept pointing into a reused
	// line buffer would return another line's text.
	add := func(s sampler.Snapshot) {
		raw := fmt.Sprintf(`[{"rule":"input_starved","gpu":%d,"evidence":"line %d"}]`, len(want), len(want))
		want = append(want, Entry{Snapshot: s, Findings: json.RawMessage(raw)})
	}
	add(staticsSnapshot(0, trainer, worker))
	add(staticsSnapshot(1, trainer, worker))
	s := staticsSnapshot(2, trainer, worker)
	s.GPUs[3].PowerLimit = sampler.Some(450) // a changed static GPU field
	s.GPUs[5].NA = map[string]string{"fan": "not supported", "sm_active": "warming up"}
	add(s)
	s = staticsSnapshot(3, trainer, renamed) // a changed process field
	s.GPUs[3].PowerLimit = sampler.Some(450)
	add(s)
	add(staticsSnapshot(4, trainer))        // the worker exits
	s = staticsSnapshot(5, trainer, worker) // and comes back, same start
	s.GPUs[2].SMClock = sampler.Some(1410)  // a steady reading moves
	add(s)
	add(staticsSnapshot(6, trainer, reused)) // PID 4001 reused
	s = staticsSnapshot(7, trainer, reused)
	s.GPUs[0].ECCCorrected = sampler.Some(3) // a health counter moves
	add(s)
	restarted := worker // the same command again under PID 4001: only the start differs
	restarted.Start = start1.Add(2 * time.Hour)
	add(staticsSnapshot(8, trainer, worker))
	add(staticsSnapshot(9, trainer, restarted))
	written, _ := json.Marshal(want[1])

	path, lines := writeEntries(t, want)
	if got, _ := json.Marshal(want[1]); !bytes.Equal(got, written) {
		t.Fatal("Write modified the caller's entry")
	}
	// Line 0 is the header; entry i is line i+1. GPU 3's power limit and
	// GPU 5's n/a reasons change at entry 2, GPU 5's back at entry 3,
	// GPU 3's at entry 4; GPU 0's ECC count at entry 7 and back at 8.
	for i, want := range []int{8, 0, 2, 1, 1, 0, 0, 1, 1, 0} {
		if n := strings.Count(lines[i+1], `"name":"NVIDIA H100`); n != want {
			t.Errorf("entry %d: %d GPUs written with their static fields, want %d", i, n, want)
		}
	}
	if !strings.Contains(lines[2], `"same_procs":[4000,4001]`) || len(lines[2]) > len(lines[1])*3/4 {
		t.Errorf("entry 1 not elided (%d bytes vs %d): %.300s", len(lines[2]), len(lines[1]), lines[2])
	}
	if !strings.Contains(lines[2], `"steady_gpus":[0,1,2,3,4,5,6,7]`) || !strings.Contains(lines[6], `"steady_gpus":[0,1,3,4,5,6,7]`) ||
		!strings.Contains(lines[7], `"steady_gpus":[0,1,3,4,5,6,7]`) {
		t.Errorf("steady readings: entry 1 must leave out all 8 GPUs', entries 5 and 6 all but GPU 2's:\n%.200s\n%.200s",
			lines[2][strings.Index(lines[2], `"steady`):], lines[6][strings.Index(lines[6], `"steady`):])
	}
	if !strings.Contains(lines[7], `bash -l`) || !strings.Contains(lines[7], `"same_procs":[4000]`) {
		t.Errorf("entry 6 (reused PID) must carry the new process in full: %.300s", lines[7])
	}

	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := readAll(t, r)
	if len(got) != len(want) {
		t.Fatalf("read %d entries, want %d", len(got), len(want))
	}
	for i := range want {
		assertSameEntry(t, i, got[i], want[i])
	}
}

// assertSameEntry compares two entries as JSON (times compare by instant;
// GPUProc.Host is compared separately, it is not in JSON).
func assertSameEntry(t *testing.T, i int, got, want Entry) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Errorf("entry %d differs after round trip:\n got %s\nwant %s", i, g, w)
	}
	for gi := range want.GPUs {
		for pi, p := range want.GPUs[gi].Procs {
			gp := got.GPUs[gi].Procs[pi]
			if (p.Host == nil) != (gp.Host == nil) || p.Host != nil && gp.Host.Cmdline != p.Host.Cmdline {
				t.Errorf("entry %d GPU %d proc %d host = %+v, want %+v", i, gi, p.PID, gp.Host, p.Host)
			}
		}
	}
}

// A recording written before elision (every field on every line, no lists)
// reads as it always did.
func TestOldRecordingWithoutElisionReads(t *testing.T) {
	want := []Entry{{Snapshot: staticsSnapshot(0, trainer, worker)}, {Snapshot: staticsSnapshot(1, trainer, reused)}}
	var b strings.Builder
	hdr, _ := json.Marshal(HeaderFor(want[0].Snapshot, time.Second))
	b.Write(hdr)
	for _, e := range want {
		line, _ := json.Marshal(e) // an Entry has no same_* lists: the old format
		b.WriteString("\n")
		b.Write(line)
	}
	r, err := NewReader(strings.NewReader(b.String()), "old", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, r)
	if len(got) != len(want) {
		t.Fatalf("read %d entries", len(got))
	}
	for i := range want {
		assertSameEntry(t, i, got[i], want[i])
	}
}

// Lists naming a GPU or PID the reader never saw in full (a hand-edited or
// damaged file) leave the entry as read instead of failing.
func TestStaticsListWithoutPriorValue(t *testing.T) {
	in := `{"gpuscope_recording":1,"host":"h","gpus":[],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}
{"gpus":[{"index":0,"util":5}],"host":{"cpus":[],"procs":{"7":{"pid":7,"ppid":1,"cpu":3}}},"same_gpus":[0,9],"same_procs":[7,8]}
`
	r, err := NewReader(strings.NewReader(in), "x", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, r)
	if len(got) != 1 || got[0].GPUs[0].Util.V != 5 || got[0].Host.Procs[7].CPU.V != 3 || got[0].GPUs[0].Name != "" {
		t.Fatalf("got %+v", got)
	}
}

// restoreProcs leaves the memory and the line as the plain walk does (the
// line's map, a search of the list per PID, the memory's absent PIDs
// dropped), over random memories, lines and lists: unsorted, repeated,
// naming PIDs absent or null in the line.
func TestRestoreProcsAsPlainWalk(t *testing.T) {
	plain := func(st *statics, procs map[int]*sampler.Proc, same []int) {
		forgetAbsent(st.procs, procs)
		same = slices.Clone(same)
		slices.Sort(same)
		for pid, p := range procs {
			if p == nil {
				continue
			}
			if _, listed := slices.BinarySearch(same, pid); listed {
				if last, ok := st.procs[pid]; ok {
					last.setOn(p)
				}
				continue
			}
			st.procs[pid] = procStaticOf(p)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 3000 {
		mem := map[int]procStatic{}
		for range rng.IntN(6) {
			pid := rng.IntN(8)
			mem[pid] = procStatic{User: fmt.Sprint("u", pid), Name: fmt.Sprint("mem", round, pid)}
		}
		line := func() map[int]*sampler.Proc {
			procs := map[int]*sampler.Proc{}
			for range rng.IntN(6) {
				pid := rng.IntN(8)
				if rng.IntN(10) == 0 {
					procs[pid] = nil
				} else {
					procs[pid] = &sampler.Proc{PID: pid, Name: fmt.Sprint("line", pid)}
				}
			}
			return procs
		}
		var same []int
		for range rng.IntN(7) {
			same = append(same, rng.IntN(8))
		}
		if rng.IntN(2) == 0 {
			slices.Sort(same)
		}
		a, b := &statics{procs: maps.Clone(mem)}, &statics{procs: maps.Clone(mem)}
		pa := line()
		pb := map[int]*sampler.Proc{}
		for pid, p := range pa {
			if p != nil {
				cp := *p
				p = &cp
			}
			pb[pid] = p
		}
		plain(a, pa, same)
		b.restoreProcs(pb, slices.Clone(same))
		if !reflect.DeepEqual(a.procs, b.procs) || !reflect.DeepEqual(pa, pb) {
			t.Fatalf("round %d, memory %v, list %v:\nplain %v %v\ngot   %v %v", round, mem, same, a.procs, pa, b.procs, pb)
		}
	}
}
