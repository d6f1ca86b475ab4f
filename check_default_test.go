package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/sim"
)

// TestCheckDefaultsNameEveryScenario: with no flag but --demo, check names the
// rule of every single-cause scenario (a prolog gate runs it with defaults)
// and passes healthy with status 0.
func TestCheckDefaultsNameEveryScenario(t *testing.T) {
	missed := 0
	for _, s := range sim.Scenarios() {
		if s.ID == "mixed" || s.ID == "mig" {
			continue
		}
		var out, errb bytes.Buffer
		got := run([]string{"check", "--demo=" + s.ID}, &out, &errb)
		if s.ID == "healthy" {
			if got != 0 {
				t.Errorf("healthy: status %d, want 0\n%s", got, out.String())
			}
			continue
		}
		if got > 2 || !strings.Contains(out.String(), "gpuscope explain "+s.ID) {
			missed++
			t.Errorf("%s: status %d, rule not named:\n%s", s.ID, got, out.String())
		}
	}
	if missed > 0 {
		t.Logf("%d scenarios missed", missed)
	}
}

// TestCheckShortSpanSaysNotJudged: a --for too short for the workload rules
// never prints a bare "no findings" nor exits 0 (docs/exit-status.md: 4).
func TestCheckShortSpanSaysNotJudged(t *testing.T) {
	var out, errb bytes.Buffer
	got := run([]string{"check", "--demo=io_bound", "--for", "30s"}, &out, &errb)
	if got != 4 {
		t.Errorf("status %d, want 4", got)
	}
	for _, want := range []string{"not judged", "io_bound (35s)", "memory_idle_held"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if got := run([]string{"check", "--demo=io_bound", "--for", "30s", "--lang", "zh"}, &out, &errb); got != 4 || !strings.Contains(out.String(), "未判定") {
		t.Errorf("zh: status %d:\n%s", got, out.String())
	}
}
