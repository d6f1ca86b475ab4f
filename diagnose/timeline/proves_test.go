package timeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/trace/tracetest/nsystest"
)

// Proves admits every rule a trace's findings are made under (a rule it
// denied would read "not visible in a trace" beside a recording) and denies
// what a timeline cannot show.
func TestProvesWhatTracesReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := nsystest.WriteKineto(f, nsystest.Workload(5, 60)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, rep := reportOf(t, path)
	if len(rep.Findings) < 4 {
		t.Fatalf("the workload proved only %d rules", len(rep.Findings))
	}
	for _, f := range rep.Findings {
		if !Proves(f.Rule) {
			t.Errorf("a trace reported %s, which Proves denies", f.Rule)
		}
	}
	for _, id := range []string{diagnose.RuleHostWait, diagnose.RuleStraggler, diagnose.RuleCommBound} {
		if !Proves(id) {
			t.Errorf("Proves(%s) = false", id)
		}
	}
	for _, id := range []string{diagnose.RuleThermalThrottle, diagnose.RuleXidError, diagnose.RuleMemoryIdleHeld, diagnose.RuleIOBound} {
		if Proves(id) {
			t.Errorf("Proves(%s) = true: a timeline does not show it", id)
		}
	}
	if r := rep.Ranks[0]; r.From.IsZero() || !r.To.After(r.From) || r.From.Year() != 2023 {
		t.Errorf("the rank's wall-clock window %v – %v, want it from baseTimeNanoseconds (2023)", r.From, r.To)
	}
}
