package summary

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// notLean hides importer.File.Lean: every line is read whole.
type notLean struct {
	*importer.File
}

func (notLean) Lean() {} // shadows the File's: nothing left out

// countLean counts the calls of Lean.
type countLean struct {
	*importer.File
	n int
}

func (c *countLean) Lean() { c.n++; c.File.Lean() }

// A recording whose findings Build takes from the file reports the same
// when the host's details are left out once that is decided (Lean): the
// jobs' energy and GPU-hours by job, parent and user read the processes'
// names, users and parents, which are kept, over processes that start,
// end and change their names.
func TestLeanReportIsTheSame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl.gz")
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	w, err := record.Create(path, record.Header{Host: "n1", IntervalMS: 1000, GPUs: []record.GPUInfo{{Index: 0}, {Index: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		at := t0.Add(time.Duration(i) * time.Second)
		fs := []diagnose.Finding{{Rule: diagnose.RuleThermalThrottle, Severity: diagnose.Warning, GPU: 1, Title: "hot",
			Evidence: "e", Since: t0, LastSeen: at}}
		raw, _ := json.Marshal(fs)
		name := "python"
		if i >= 120 {
			name = "torchrun"
		}
		worker := 7000 + i/50 // a new worker every 50 s
		procs := map[int]*sampler.Proc{
			100:    {PID: 100, PPID: 1, User: "alice", Name: "bash", State: "S", Children: []int{4000}},
			4000:   {PID: 4000, PPID: 100, User: "alice", Name: name, State: "R", CPU: sampler.Some(90), Children: []int{4001}},
			4001:   {PID: 4001, PPID: 4000, User: "alice", Name: "worker", State: "S", RSS: sampler.Some(1e9)},
			3000:   {PID: 3000, PPID: 1, User: "root", Name: "slurmstepd", State: "S", Children: []int{worker}},
			worker: {PID: worker, PPID: 3000, User: "bob", Name: "train", State: "R", CPU: sampler.Some(float64(i % 100))},
		}
		s := sampler.Snapshot{Time: at, Seq: uint64(i + 1), Node: sampler.Node{Source: "nvml"},
			GPUs: []sampler.GPU{
				{Index: 0, Util: sampler.Some(50), Power: sampler.Some(300), Procs: []sampler.GPUProc{{PID: 4001, SMUtil: sampler.Some(50)}}},
				{Index: 1, Util: sampler.Some(40), Power: sampler.Some(250), Procs: []sampler.GPUProc{{PID: worker, SMUtil: sampler.Some(40)}, {PID: 4000, SMUtil: sampler.Some(10)}}},
			},
			Host: &sampler.Host{CPUs: []float64{float64(i % 7), 3}, CPU: sampler.Some(20), Procs: procs}}
		// The topology's last line is followed by lines whose GPUs have
		// other affinities: the report names the former's, which a lean
		// read has by then decoded later lines over (topoGPU).
		s.GPUs[0].CPUAffinity, s.GPUs[1].CPUAffinity = "0-15", "16-31"
		if i < 200 {
			s.Topology = &sampler.Topology{Links: [][]string{{"X", "NV18"}, {"NV18", "X"}}}
			s.GPUs[0].CPUAffinity, s.GPUs[1].CPUAffinity = "0-31", "32-63"
			s.GPUs[1].NUMANode = sampler.Some(1)
		}
		if err := w.Write(record.Entry{Snapshot: s, Findings: raw}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	opts := Options{File: path, PricePerKWh: 0.2}
	c := &countLean{}
	lean := buildAs(t, path, opts, func(f *importer.File) Source { c.File = f; return c })
	whole := buildAs(t, path, opts, func(f *importer.File) Source { return notLean{f} })
	if c.n != 1 {
		t.Fatalf("Lean called %d times, want once", c.n)
	}
	a, _ := json.Marshal(lean)
	b, _ := json.Marshal(whole)
	if !reflect.DeepEqual(lean, whole) || string(a) != string(b) {
		t.Fatalf("lean:\n%s\nwhole:\n%s", a, b)
	}
	if lean.Topology == nil || !slices.ContainsFunc(lean.Topology.Summary, func(l string) bool { return strings.Contains(l, "CPUs 32-63, NUMA 1") }) {
		t.Fatalf("topology %+v: want the affinities of its last line", lean.Topology)
	}
	if lean.Energy == nil || len(lean.Energy.Jobs) < 3 || lean.FindingsFrom != "recording" {
		t.Fatalf("energy %+v from %q: want the jobs of three parents", lean.Energy, lean.FindingsFrom)
	}
}
