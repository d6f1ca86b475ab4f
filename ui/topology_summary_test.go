package ui

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// An 8-rank job on a PCIe box has 28 slow pairs: one summary line, not 28.
func TestSlowPairLinesSummarisesBigJobs(t *testing.T) {
	st := testStyles()
	var pairs []diagnose.SlowPair
	for a := 0; a < 8; a++ {
		for b := a + 1; b < 8; b++ {
			link := "SYS"
			if a/4 == b/4 {
				link = "PHB"
			}
			pairs = append(pairs, diagnose.SlowPair{A: a, B: b, Link: link, Job: diagnose.Job{PPID: 2000, Parent: "torchrun"}})
		}
	}
	pairs = append(pairs, diagnose.SlowPair{A: 0, B: 1, Link: "PIX", Job: diagnose.Job{PID: 77}})
	lines := slowPairLines(&common{env: env{st: &st, tr: i18n.For("en")}}, pairs)
	if len(lines) != 2 {
		t.Fatalf("want 2 lines (a summary and one pair), got %d:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if !strings.Contains(lines[0], "on 8 GPUs: 28 GPU pairs without NVLink (12 PHB, 16 SYS)") {
		t.Errorf("summary: %s", lines[0])
	}
	if !strings.Contains(lines[1], "GPU 0 ↔ GPU 1: one job (PID 77) over PIX") {
		t.Errorf("small job: %s", lines[1])
	}
}
