//go:build !race

// The full run is the corpus × 20 seeds × 180 ticks plus four 5-seed
// sweeps; under the race detector it is ~10× slower, so `make test` runs it
// in a separate non-race step (quick_test.go covers the harness under -race).

package accuracy

import (
	"flag"
	"os"
	"slices"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
)

var update = flag.Bool("update", false, "rewrite the simulator section of docs/diagnosis-accuracy.md")

const docPath = "../../docs/diagnosis-accuracy.md"

// TestAccuracy holds the acceptance figures and the published page: every
// rule's scenario reports it in at least 19 of 20 seeds of 3 simulated
// minutes, healthy and the look-alikes raise nothing they should not, no
// finding opens twice, and the simulator section of
// docs/diagnosis-accuracy.md is what this run produces (`make accuracy`
// rewrites it).
func TestAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("full 20-seed matrix")
	}
	rep, err := Acceptance()
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Base
	for _, sc := range r.Scenarios {
		truth, _ := TruthOf(sc)
		for _, rule := range truth.Expect {
			if r.Hits[sc][rule] < 19 {
				t.Errorf("scenario %s: %s reported in %d/20 seeds, want ≥ 19 (all rules seen: %v)", sc, rule, r.Hits[sc][rule], r.Hits[sc])
			}
		}
		if r.MaxOpens[sc] > 1 {
			t.Errorf("scenario %s: a finding opened %d times in one seed (flapping)", sc, r.MaxOpens[sc])
		}
		if _, isRule := diagnose.Lookup(sc); isRule || sc == "mixed" {
			continue // rule scenarios' side findings are scored, not forbidden
		}
		for rule, n := range r.Hits[sc] {
			if !slices.Contains(truth.Expect, rule) && !slices.Contains(truth.Allow, rule) {
				t.Errorf("scenario %s: %s reported in %d/20 seeds; its truth does not have it", sc, rule, n)
			}
		}
	}
	if r.Alarms["healthy"] != 0 {
		t.Errorf("healthy: warning/critical findings in %d/20 seeds: %v", r.Alarms["healthy"], r.Hits["healthy"])
	}
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Markdown()
	if *update {
		if err := os.WriteFile(docPath, []byte(ReplaceSection(string(doc), got)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, ok := Section(string(doc)); !ok || want != got {
		t.Errorf("docs/diagnosis-accuracy.md's simulator section differs from this run: run `make accuracy` and commit the page.\nthis run:\n%s", got)
	}
}
