package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/trace/tracetest/nsystest"
)

// A recording and a profiler trace of the same time, given together, are
// set side by side by wall clock: the counters' input_starved on GPU 0 is
// confirmed by the trace's DataLoader on the main thread, what the trace
// alone proves is listed as such, and a trace of another time is set aside
// with the two time ranges.
func TestReportAlignsRecordingAndTrace(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.jsonl.gz")
	var out, errb bytes.Buffer
	if code := run([]string{"record", "-o", rec, "--demo=input_starved", "--duration", "5m"}, &out, &errb); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"report", "--format", "json", rec}, &out, &errb); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errb.String())
	}
	var r struct {
		Range struct{ From, To time.Time } `json:"range"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	writeTrace := func(name string, base time.Time) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := nsystest.WriteKinetoAt(f, nsystest.Workload(5, 60), base); err != nil {
			t.Fatal(err)
		}
		return p
	}
	during := writeTrace("during.pt.trace.json", r.Range.To.Add(-time.Minute))
	before := writeTrace("before.pt.trace.json", r.Range.From.Add(-24*time.Hour))

	out.Reset()
	if code := run([]string{"report", rec, during, before}, &out, &errb); code != 0 {
		t.Fatalf("report rec+traces: exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"COUNTERS AND TRACE, BY WALL CLOCK",
		"✓ input_starved            confirmed by the trace · ",
		"+ sync_stall               only in the trace · ",
		"during.pt.trace.json  GPU 0, ",
		"before.pt.trace.json  the trace ran ", "outside the counters'",
		"CUDA_DEVICE_ORDER=PCI_BUS_ID",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("aligned report lacks %q:\n%s", want, s)
		}
	}

	out.Reset()
	if code := run([]string{"report", "--format", "json", rec, during}, &out, &errb); code != 0 {
		t.Fatalf("report json: exit %d: %s", code, errb.String())
	}
	var j struct {
		Aligned struct {
			Ranks []struct {
				Pairs []struct {
					Verdict  string `json:"verdict"`
					Counters *struct {
						Rule string `json:"rule"`
					} `json:"counters"`
				} `json:"pairs"`
			} `json:"ranks"`
		} `json:"aligned"`
	}
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatalf("json: %v\n%.300s", err, out.String())
	}
	found := false
	for _, p := range j.Aligned.Ranks[0].Pairs {
		found = found || (p.Counters != nil && p.Counters.Rule == "input_starved" && p.Verdict == "confirmed")
	}
	if !found {
		t.Errorf("json: no confirmed input_starved: %+v", j.Aligned)
	}
	// markdown and html have no aligned form: one line, exit 2.
	errb.Reset()
	if code := run([]string{"report", "--format", "html", rec, during}, &out, &errb); code != 2 || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("html of a trace: exit %d: %q", code, errb.String())
	}
}
