package record

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Unchanged NVLink lists and topology are written once, yet every snapshot
// reads back complete; a change is written and carried from then on.
func TestSlowTierWrittenOnceReadBackComplete(t *testing.T) {
	links := []sampler.NVLink{{Link: 0, Active: true, RemoteBus: "0000:18:00.0"}, {Link: 1, Active: true}}
	topo := &sampler.Topology{Links: [][]string{{"X", "NV18"}, {"NV18", "X"}}}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	snap := func(i int, l []sampler.NVLink) sampler.Snapshot {
		return sampler.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i), Topology: topo,
			GPUs: []sampler.GPU{{Index: 0, NVLinks: l, Util: sampler.Some(float64(i))}, {Index: 1, NVLinks: links}}}
	}
	changed := []sampler.NVLink{{Link: 0, Active: false, Replay: 3}}
	want := []sampler.Snapshot{snap(0, links), snap(1, links), snap(2, changed), snap(3, changed)}

	path := writeSnapshots(t, want)
	if !reflect.DeepEqual(want[1].GPUs[0].NVLinks, links) {
		t.Fatal("Write modified the caller's snapshot")
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range want {
		e, err := r.Next()
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		for g := range want[i].GPUs {
			if !reflect.DeepEqual(e.GPUs[g].NVLinks, want[i].GPUs[g].NVLinks) {
				t.Errorf("entry %d GPU %d links = %+v, want %+v", i, g, e.GPUs[g].NVLinks, want[i].GPUs[g].NVLinks)
			}
		}
		if e.Topology == nil || !topoEqual(e.Topology, topo) {
			t.Errorf("entry %d topology = %+v", i, e.Topology)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

// A GPU that fell off the bus between two snapshots (no NVLinks, no
// topology) reads back with none: an absent list means absent, not "as
// before" (docs/snapshot-json.md, Recordings).
func TestLostLinksReadBackLost(t *testing.T) {
	links := []sampler.NVLink{{Link: 0, Active: true, RemoteBus: "0000:18:00.0"}}
	topo := &sampler.Topology{Links: [][]string{{"X"}}}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	want := []sampler.Snapshot{
		{Time: t0, Topology: topo, GPUs: []sampler.GPU{{Index: 0, NVLinks: links}}},
		{Time: t0.Add(time.Second), GPUs: []sampler.GPU{{Index: 0, Lost: true, NVLinks: []sampler.NVLink{}}}},
	}
	path := writeSnapshots(t, want)
	got := readPath(t, path)
	if len(got) != 2 {
		t.Fatalf("%d entries", len(got))
	}
	if l := got[1].GPUs[0].NVLinks; len(l) != 0 {
		t.Errorf("lost GPU read back with links %+v, written none", l)
	}
	if got[1].Topology != nil {
		t.Errorf("lost GPU read back with topology %+v, written none", got[1].Topology.Links)
	}
	if !reflect.DeepEqual(got[0].GPUs[0].NVLinks, links) || got[0].Topology == nil {
		t.Errorf("first entry: links %+v, topology %+v", got[0].GPUs[0].NVLinks, got[0].Topology)
	}
}

// A version 1 recording left unchanged links and topology out without a
// list: it still reads them as carried forward.
func TestVersion1CarriesSlowTierForward(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.jsonl")
	body := `{"gpuscope_recording":1,"host":"n1","gpus":[{"index":0}],"interval_ms":1000,"source":"nvml","started":"2026-01-01T00:00:00Z"}
{"time":"2026-01-01T00:00:00Z","gpus":[{"index":0,"nvlinks":[{"link":0,"active":true}]}],"topology":{"links":[["X"]]}}
{"time":"2026-01-01T00:00:01Z","gpus":[{"index":0}]}
`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	got := readPath(t, path)
	if len(got) != 2 || len(got[1].GPUs[0].NVLinks) != 1 || got[1].Topology == nil {
		t.Fatalf("version 1 line 2: %+v", got)
	}
}

// writeSnapshots records snaps to a new plain file and returns its path.
func writeSnapshots(t *testing.T, snaps []sampler.Snapshot) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w, err := Create(path, HeaderFor(snaps[0], time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range snaps {
		if err := w.Write(Entry{Snapshot: s}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func readPath(t *testing.T, path string) []Entry {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return readAll(t, r)
}
