package record

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// With LazyHostProcs, a recording whose first entry carries findings
// comes without host processes on every line (the report takes its
// findings); one whose first entry has none comes with them on every line,
// static fields restored (the report re-diagnoses it). Everything else
// reads as without the option.
func TestLazyHostProcs(t *testing.T) {
	withFindings := json.RawMessage(`[{"rule":"low_util","severity":"warning","gpu":0,"pid":0}]`)
	for _, c := range []struct {
		name      string
		findings  []json.RawMessage
		wantProcs bool
	}{
		{"first with findings", []json.RawMessage{withFindings, nil, json.RawMessage(`[]`), withFindings}, false},
		{"first without", []json.RawMessage{nil, withFindings, nil, json.RawMessage(`null`)}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeWithProcs(t, c.findings)
			full, lazy := readWith(t, path, Options{}), readWith(t, path, Options{LazyHostProcs: true})
			if len(full) != len(c.findings) || len(lazy) != len(c.findings) {
				t.Fatalf("read %d and %d entries, want %d", len(full), len(lazy), len(c.findings))
			}
			for i := range full {
				p := lazy[i].Host.Procs[4000]
				if got := p != nil; got != c.wantProcs {
					t.Fatalf("line %d (findings %s): host process decoded = %v, want %v", i+2, c.findings[i], got, c.wantProcs)
				}
				if fp := full[i].Host.Procs[4000]; fp == nil || fp.Cmdline != "python train.py" {
					t.Fatalf("line %d without the option: host process %+v", i+2, fp)
				}
				if c.wantProcs && p.Cmdline != "python train.py" {
					t.Fatalf("line %d: host process %+v, want its command line restored", i+2, p)
				}
				if string(lazy[i].Findings) != string(full[i].Findings) || len(lazy[i].GPUs) != 8 || lazy[i].GPUs[3].Util != full[i].GPUs[3].Util {
					t.Fatalf("line %d reads differently with the option", i+2)
				}
			}
		})
	}
}

// writeWithProcs writes one line per findings value, each snapshot with
// the same host process (its static fields elided after the first).
func writeWithProcs(t *testing.T, findings []json.RawMessage) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w, err := Create(path, HeaderFor(realisticSnapshot(0), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range findings {
		s := realisticSnapshot(i)
		s.Host.Procs = map[int]*sampler.Proc{4000: {PID: 4000, PPID: 1, User: "alice", Name: "python", Cmdline: "python train.py", CPU: sampler.Some(99)}}
		if err := w.Write(Entry{Snapshot: s, Findings: f}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func readWith(t *testing.T, path string, o Options) []Entry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f, path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return readAll(t, r)
}
