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
	md := r.Matrix()
	if !strings.Contains(md, "| input_starved | 1/1 |") {
		t.Errorf("matrix row missing:\n%s", md)
	}
	if _, err := Run(Config{Scenarios: []string{"nosuch"}, Seeds: 1, Duration: time.Second, Interval: time.Second}); err == nil {
		t.Error("unknown scenario must fail")
	}
}

// The section markers keep what others wrote around the generated text.
func TestReplaceSectionKeepsOtherSections(t *testing.T) {
	doc := "# Diagnosis accuracy\n\nintro\n\n## Real recordings\n\nby hand\n"
	once := ReplaceSection(doc, "## Simulator\n\nv1\n")
	twice := ReplaceSection(once, "## Simulator\n\nv2\n")
	if !strings.Contains(twice, "## Real recordings\n\nby hand\n") || !strings.Contains(twice, "intro") {
		t.Errorf("other sections lost:\n%s", twice)
	}
	if s, ok := Section(twice); !ok || s != "## Simulator\n\nv2\n" || strings.Contains(twice, "v1") {
		t.Errorf("section %q ok %v in:\n%s", s, ok, twice)
	}
}

// Scores follow the truth: expected and reported is a true positive,
// reported outside the truth a false positive, allowed is neither.
func TestScoresFollowTruth(t *testing.T) {
	r := Result{Config: Config{Scenarios: []string{"load_imbalance", "healthy", "lookalike_encode_only"}, Seeds: 4},
		Hits: map[string]map[string]int{
			"load_imbalance":        {"load_imbalance": 3, "gpu_contention": 4},
			"healthy":               {"load_imbalance": 1},
			"lookalike_encode_only": {"memory_idle_held": 2},
		}}
	s := r.Scores()
	if li := s["load_imbalance"]; li.TP != 3 || li.FN != 1 || li.FP != 1 {
		t.Errorf("load_imbalance %+v, want TP 3 FN 1 FP 1", li)
	}
	if gc := s["gpu_contention"]; gc != (Score{}) {
		t.Errorf("allowed gpu_contention scored %+v", gc)
	}
	if mh := s["memory_idle_held"]; mh.FP != 2 {
		t.Errorf("memory_idle_held %+v, want FP 2", mh)
	}
	if p, ok := s["load_imbalance"].Precision(); !ok || p != 0.75 {
		t.Errorf("precision %v %v", p, ok)
	}
}
