package timeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
	"github.com/gpuscope/gpuscope/sampler/trace/tracetest/nsystest"
)

// reportOf reads one file (Kineto or nsys) into the report `gpuscope
// report` prints, as JSON, its file name set alike.
func reportOf(t *testing.T, path string) ([]byte, *Report) {
	t.Helper()
	b := New()
	m, err := trace.ReadFile(path, b.Add)
	if err != nil {
		t.Fatal(err)
	}
	r := b.Rank(m)
	r.File = "run"
	rep := NewReport([]Rank{r})
	js, err := json.MarshalIndent(rep, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return js, rep
}

// TestNsysExportAnalysedAsKinetoTrace: one workload written as a Kineto
// trace and as an Nsight Systems export (with and without the ENUM tables
// of newer nsys) gives the same figures and the same findings, byte for
// byte. No public run was profiled both ways, so both files are built from
// one synthetic event list (sampler/trace/testdata/INDEX.md).
func TestNsysExportAnalysedAsKinetoTrace(t *testing.T) {
	dir := t.TempDir()
	evs := nsystest.Workload(5, 60)
	kineto := filepath.Join(dir, "run.json")
	f, err := os.Create(kineto)
	if err != nil {
		t.Fatal(err)
	}
	if err := nsystest.WriteKineto(f, evs); err != nil {
		t.Fatal(err)
	}
	f.Close()
	want, rep := reportOf(t, kineto)
	var rules []string
	for _, f := range rep.Findings {
		rules = append(rules, f.Rule)
	}
	for _, rule := range []string{"input_starved", "sync_stall", "copy_bound", "launch_bound", "tensor_cores_idle"} {
		if !slices.Contains(rules, rule) {
			t.Errorf("the workload should prove %s; the Kineto trace's findings: %v", rule, rules)
		}
	}
	for _, enums := range []bool{true, false} {
		path := filepath.Join(dir, "run.sqlite")
		os.Remove(path)
		if err := nsystest.WriteNsys(path, evs, enums); err != nil {
			t.Fatal(err)
		}
		if got, _ := reportOf(t, path); string(got) != string(want) {
			t.Errorf("enums=%v: the nsys export's report differs from the Kineto trace's:\nnsys:\n%s\nkineto:\n%s", enums, got, want)
		}
	}
}

// An export larger than the analysis' window (72,000 launches, more than
// the launches kept in flight; 72,000 kernels with their copies, more than
// the order buffer holds) still agrees with the Kineto trace, and neither
// is approximate: the nsys reader interleaves its tables by start as
// Kineto does (sampler/trace/nsys_order.go).
func TestLargeNsysExportWithinTheWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("writes an export of 72,000 kernels")
	}
	dir := t.TempDir()
	evs := nsystest.Workload(6, 12000)
	kineto := filepath.Join(dir, "run.json")
	f, err := os.Create(kineto)
	if err != nil {
		t.Fatal(err)
	}
	if err := nsystest.WriteKineto(f, evs); err != nil {
		t.Fatal(err)
	}
	f.Close()
	path := filepath.Join(dir, "run.sqlite")
	if err := nsystest.WriteNsys(path, evs, true); err != nil {
		t.Fatal(err)
	}
	want, kr := reportOf(t, kineto)
	got, nr := reportOf(t, path)
	if a, b := kr.Ranks[0].Approximate, nr.Ranks[0].Approximate; a != 0 || b != 0 {
		t.Errorf("approximate events: Kineto %d, nsys %d; want none", a, b)
	}
	if string(got) != string(want) {
		t.Errorf("the nsys export's report differs from the Kineto trace's:\nnsys:\n%.3000s\nkineto:\n%.3000s", got, want)
	}
}
