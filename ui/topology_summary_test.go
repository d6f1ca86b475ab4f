package ui

import (
	"strings"
	"testing"
)

// An 8-rank job on a PCIe box has 28 slow pairs: one summary line, not 28.
func TestSlowPairLinesSummarisesBigJobs(t *testing.T) {
	st := testStyles()
	var pairs []jobPair
	for a := 0; a < 8; a++ {
		for b := a + 1; b < 8; b++ {
			link := "SYS"
			if a/4 == b/4 {
				link = "PHB"
			}
			pairs = append(pairs, jobPair{a: a, b: b, link: link, job: "torchrun, PPID 2000"})
		}
	}
	pairs = append(pairs, jobPair{a: 0, b: 1, link: "PIX", job: "PID 77"})
	lines := slowPairLines(&st, pairs)
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
