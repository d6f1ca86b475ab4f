//go:build !race

// The full matrix is 22 scenarios × 20 seeds × 180 ticks; under the race
// detector it is ~10× slower, so `make test` runs it in a separate non-race
// step (accuracy_quick_test.go covers the harness under -race).

package accuracy

import (
	"flag"
	"os"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

var update = flag.Bool("update", false, "rewrite docs/diagnosis-accuracy.md")

// TestAccuracy holds the acceptance figures: every rule's scenario
// reports it in at least 19 of 20 seeds of 3 simulated minutes, healthy raises
// no warning or critical finding in any seed, and no finding opens twice.
func TestAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("full 20-seed matrix")
	}
	var ids []string
	for _, sc := range sim.Scenarios() {
		ids = append(ids, sc.ID)
	}
	r, err := Run(Config{Scenarios: ids, Seeds: 20, Duration: 3 * time.Minute, Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("../../docs/diagnosis-accuracy.md", []byte(r.Markdown()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, sc := range ids {
		if _, isRule := diagnose.Lookup(sc); isRule && r.Hits[sc][sc] < 19 {
			t.Errorf("scenario %s: own rule reported in %d/20 seeds, want ≥ 19 (all rules seen: %v)", sc, r.Hits[sc][sc], r.Hits[sc])
		}
		if r.MaxOpens[sc] > 1 {
			t.Errorf("scenario %s: a finding opened %d times in one seed (flapping)", sc, r.MaxOpens[sc])
		}
	}
	if r.Alarms["healthy"] != 0 {
		t.Errorf("healthy: warning/critical findings in %d/20 seeds: %v", r.Alarms["healthy"], r.Hits["healthy"])
	}
}
