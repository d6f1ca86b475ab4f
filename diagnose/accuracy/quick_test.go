package accuracy

import (
	"strings"
	"testing"
	"time"
)

// A small run of the harness (also under -race): the starved scenario must be
// found, and the matrix must render its row.
func TestQuickRun(t *testing.T) {
	r, err := Run(Config{Scenarios: []string{"healthy", "input_starved"}, Seeds: 1, Duration: 90 * time.Second, Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if r.Hits["input_starved"]["input_starved"] != 1 {
		t.Errorf("input_starved not reported: %v", r.Hits)
	}
	md := r.Markdown()
	if !strings.Contains(md, "| input_starved | 1/1 |") {
		t.Errorf("matrix row missing:\n%s", md)
	}
	if _, err := Run(Config{Scenarios: []string{"nosuch"}, Seeds: 1, Duration: time.Second, Interval: time.Second}); err == nil {
		t.Error("unknown scenario must fail")
	}
}
