package diagnose

import "testing"

func TestWorst(t *testing.T) {
	if _, any := Worst(nil); any {
		t.Error("no findings reported a worst severity")
	}
	// Info is the zero Severity: one info finding is still "any".
	if s, any := Worst([]Finding{{Severity: Info}}); !any || s != Info {
		t.Errorf("one info finding: %v %v", s, any)
	}
	if s, _ := Worst([]Finding{{Severity: Warning}, {Severity: Critical}, {Severity: Info}}); s != Critical {
		t.Errorf("worst of warning, critical, info = %v", s)
	}
}
