package summary

import (
	"strings"
	"testing"
)

// A rule that found something without a process list was judged: the
// processes note must not call it unjudged beside its own finding.
func TestAbsentNamesOnlyUnjudgedRules(t *testing.T) {
	r := &Report{}
	note := func() string {
		for _, n := range absent(r) {
			if strings.HasPrefix(n, "processes: absent") {
				return n
			}
		}
		t.Fatal("no processes note without processes")
		return ""
	}
	if n := note(); !strings.Contains(n, "gpu_contention cannot be judged") {
		t.Errorf("no findings: %q, want gpu_contention named unjudged", n)
	}
	r.Findings = []Finding{{Rule: "gpu_contention"}}
	if n := note(); strings.Contains(n, "gpu_contention") || !strings.Contains(n, "memory_idle_held cannot be judged") {
		t.Errorf("with a gpu_contention finding: %q, want only memory_idle_held unjudged", n)
	}
}
