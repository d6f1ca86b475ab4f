package record

import (
	"strings"
	"testing"
)

func TestLenientWarningsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"gpuscope_recording":1,"host":"h","gpus":[],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}` + "\n")
	for i := range 50 {
		if i%2 == 0 {
			b.WriteString("garbage\n")
		} else {
			b.WriteString(`{"seq":7,"gpus":[]}` + "\n")
		}
	}
	r, err := NewReader(strings.NewReader(b.String()), "r", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := readAll(t, r); len(got) != 25 {
		t.Fatalf("read %d, want 25", len(got))
	}
	w := r.Warnings()
	if len(w) != maxWarnings+2 || w[len(w)-1] != "25 damaged lines skipped" || !strings.Contains(w[len(w)-2], "5 more warnings") {
		t.Errorf("warnings (%d): %q", len(w), w)
	}
}
