package summary

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// whole hides the reader's FindingsDelta: Build decodes every line's
// findings, as for a version 2 recording.
type whole struct{ f *importer.File }

func (w whole) Next() (sampler.Snapshot, json.RawMessage, error) { return w.f.Next() }

// countDelta counts the lines whose findings came with a delta.
type countDelta struct {
	*importer.File
	n int
}

func (c *countDelta) FindingsDelta() ([]bool, json.RawMessage) {
	kept, written := c.File.FindingsDelta()
	if kept != nil {
		c.n++
	}
	return kept, written
}

// A recording whose findings are written only when they change reports
// the same whether Build takes the unchanged ones' rules from the line
// before or decodes every line: findings seen again, worse, words changed,
// one added in front (all shift), one closed, none, back.
func TestReportFromFindingsDeltaIsTheSame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl.gz")
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	w, err := record.Create(path, record.Header{Host: "n1", IntervalMS: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		at := t0.Add(time.Duration(i) * time.Second)
		ecc := diagnose.Finding{Rule: diagnose.RuleECCErrors, Severity: diagnose.Warning, GPU: 0, Title: "ecc",
			Evidence: "e", Since: t0, LastSeen: at}
		thermal := diagnose.Finding{Rule: diagnose.RuleThermalThrottle, Severity: diagnose.Warning, GPU: 1, Title: "hot",
			Evidence: "e", Since: t0, LastSeen: at}
		if i >= 50 {
			thermal.Severity = diagnose.Critical
		}
		if i >= 80 {
			thermal.Evidence = "e2"
		}
		fs := []diagnose.Finding{ecc, thermal}
		switch {
		case i >= 100 && i < 150:
			fs = []diagnose.Finding{thermal, ecc}
		case i >= 150 && i < 200:
			fs = []diagnose.Finding{thermal}
		case i >= 200 && i < 210:
			fs = nil
		case i >= 300:
			ecc.LastSeen = t0.Add(299 * time.Second) // held over lines
			fs = []diagnose.Finding{ecc, thermal}
		}
		raw, _ := json.Marshal(fs)
		s := sampler.Snapshot{Time: at, Seq: uint64(i + 1), Node: sampler.Node{Source: "nvml"},
			GPUs: []sampler.GPU{{Index: 0, Util: sampler.Some(50)}, {Index: 1, Util: sampler.Some(40)}}}
		if err := w.Write(record.Entry{Snapshot: s, Findings: raw}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var c *countDelta
	withDelta := buildAs(t, path, Options{File: path}, func(f *importer.File) Source { c = &countDelta{File: f}; return c })
	decoded := buildAs(t, path, Options{File: path}, func(f *importer.File) Source { return whole{f} })
	if c.n < 300 {
		t.Fatalf("%d lines came with a delta, want most of 400", c.n)
	}
	if !reflect.DeepEqual(withDelta, decoded) {
		a, _ := json.Marshal(withDelta.Findings)
		b, _ := json.Marshal(decoded.Findings)
		t.Fatalf("with the delta:\n%s\ndecoding every line:\n%s", a, b)
	}
	if f := findRule(withDelta, diagnose.RuleThermalThrottle, 1); f == nil || f.Severity != diagnose.Critical || f.Evidence != "e2" {
		t.Fatalf("thermal finding %+v, want critical with the latest evidence", f)
	}
}

// buildAs is the report of the recording at path read through the Source
// src makes of the opened file: two reads of one file compared.
func buildAs(t *testing.T, path string, opts Options, src func(*importer.File) Source) *Report {
	t.Helper()
	f, err := importer.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Build(src(f), opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
