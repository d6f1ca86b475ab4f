package record

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// leanSnapshot is line i of a host whose processes come, go, change their
// static fields and their parents: what Lean keeps must stay exact.
func leanSnapshot(i int) sampler.Snapshot {
	s := fullSnapshot()
	s.Time, s.Seq = t0.Add(time.Duration(i)*time.Second), uint64(i+1)
	s.Host.CPUs = []float64{float64(i), 2.5, 1e-3, 8.8e+10}
	name := "python"
	if i >= 7 {
		name = "torchrun" // a static field changed: written in full again
	}
	s.Host.Procs = map[int]*sampler.Proc{
		100: {PID: 100, PPID: 1, User: "alice", Name: "bash", State: "S", CPU: sampler.Some(0.5), Children: []int{4000}},
		4000: {PID: 4000, PPID: 100, User: "alice", Name: name, Cmdline: "python train.py", State: "R", CPU: sampler.Some(99.5 - float64(i)),
			RSS: sampler.Some(1e9 + float64(i)), Threads: 12, Start: t0.Add(-time.Hour), Children: []int{4001, 4002}},
		4001: {PID: 4001, PPID: 4000, User: "alice", Name: "pt_data_worker", State: "D", RSS: sampler.NA},
	}
	if i%5 == 3 { // a process for one line only, then gone
		s.Host.Procs[5000+i] = &sampler.Proc{PID: 5000 + i, PPID: 4000, User: "bob", Name: "nccl", State: "S", CPU: sampler.Some(3)}
	}
	return s
}

// leanOf is e as Lean reads it: the host's per-CPU figures and its
// processes' children left out, nothing else.
func leanOf(e Entry) Entry {
	if e.Host == nil {
		return e
	}
	h := *e.Host
	h.CPUs = nil
	if e.Host.Procs != nil {
		h.Procs = map[int]*sampler.Proc{}
	}
	for pid, p := range e.Host.Procs {
		q := *p
		q.Children = nil
		h.Procs[pid] = &q
	}
	e.Host = &h
	e.GPUs = append([]sampler.GPU(nil), e.GPUs...)
	for i := range e.GPUs { // the GPUs' processes joined to the host's
		g := &e.GPUs[i]
		g.Procs = append([]sampler.GPUProc(nil), g.Procs...)
		for j := range g.Procs {
			if g.Procs[j].Host != nil {
				g.Procs[j].Host = h.Procs[g.Procs[j].PID]
			}
		}
	}
	return e
}

// A recording read lean, from its first line or from its fourth on, gives
// what the full read gives less the host's details, and the static fields
// carried over lines (names, users, parents) the same.
func TestLeanReadsAsFullLessHostDetail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lean.jsonl.gz")
	w, err := Create(path, HeaderFor(leanSnapshot(0), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 { // more than the lines decoded ahead (2 × maxWorkers × jobsPerWorker)
		if err := w.Write(Entry{Snapshot: leanSnapshot(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	full := readWith(t, path, Options{})
	for _, from := range []int{0, 3} {
		r, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		read, dropped := 0, 0
		maps := map[uintptr]bool{} // the process maps handed out
		gpus := map[*sampler.GPU]bool{}
		reused, reusedGPUs := 0, 0
		for i := 0; ; i++ {
			if i == from {
				r.Lean()
			}
			e, err := r.Next()
			if err != nil {
				break
			}
			// Checked at once: a lean entry's process records are reused
			// once Next is called again.
			want := leanOf(full[i])
			if e.Host.CPUs == nil {
				dropped++
			} else {
				want = full[i] // decoded before Lean took effect: whole
			}
			if !reflect.DeepEqual(e, want) {
				t.Fatalf("lean from line %d, entry %d:\n got %#v\nwant %#v", from, i, e.Host, want.Host)
			}
			if m := reflect.ValueOf(e.Host.Procs).Pointer(); maps[m] {
				reused++
			} else {
				maps[m] = true
			}
			if g := &e.GPUs[:1][0]; gpus[g] {
				reusedGPUs++
			} else {
				gpus[g] = true
			}
			read++
		}
		r.Close()
		if read != len(full) {
			t.Fatalf("lean from line %d: %d entries, want %d", from, read, len(full))
		}
		if dropped < len(full)-from-2*maxWorkers*jobsPerWorker {
			t.Errorf("lean from line %d: %d of %d entries read lean", from, dropped, len(full))
		}
		if reused == 0 {
			t.Errorf("lean from line %d: no process records reused", from)
		}
		if reusedGPUs == 0 {
			t.Errorf("lean from line %d: no GPU slice reused", from)
		}
	}
}

// FuzzLeanDecode: a line the lean scanner reads, the full one reads too,
// and the same less the host's details; a line one refuses, both refuse.
func FuzzLeanDecode(f *testing.F) {
	f.Add([]byte(`{"host":{"cpus":[1,2.5e+10,-0.0],"cpu":null,"procs":{"7":{"pid":7,"ppid":1,"state":"S","rss":8.5e+09,"children":[8]}}}}`))
	f.Add([]byte(`{"host":{"cpus":[1e400],"procs":{"7":{"pid":7,"cpu":1e999,"rss":null,"children":[1.5]}}}}`))
	f.Add([]byte(`{"host":{"cpus":[01],"procs":{"7":{"pid":7,"state":"\u0041","children":[9223372036854775808]}}}}`))
	f.Add([]byte(`{"host":{"cpus":null,"procs":{"7":{"pid":7,"name":"x","user":"u","state":"R","cpu":1.7976931348623157e308}}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var full, lean wireEntry
		okFull := fastEntry(&scanner{}, line, &full)
		okLean := fastEntry(&scanner{lean: true}, line, &lean)
		if okFull != okLean {
			t.Fatalf("full read %v, lean read %v: %q", okFull, okLean, line)
		}
		if okFull && !reflect.DeepEqual(leanOf(full.Entry), lean.Entry) {
			t.Fatalf("reads differently: %q\nfull %+v\nlean %+v", line, full.Host, lean.Host)
		}
	})
}
