package diagnose

import (
	"encoding/json"
	"testing"
)

// TestParseSeverity: the spellings a person types, in any case and with
// stray spaces, read as one severity; JSON reads through the same parser;
// anything else is an error that names the choices.
func TestParseSeverity(t *testing.T) {
	for in, want := range map[string]Severity{
		"info": Info, "warning": Warning, "critical": Critical,
		"Warning": Warning, " CRITICAL ": Critical, "warn": Warning, "crit": Critical, "INFO": Info,
	} {
		got, err := ParseSeverity(in)
		if err != nil || got != want {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "severe", "2", "warnings"} {
		if _, err := ParseSeverity(bad); err == nil {
			t.Errorf("ParseSeverity(%q) accepted", bad)
		}
	}
	var s Severity
	if err := json.Unmarshal([]byte(`"Critical"`), &s); err != nil || s != Critical {
		t.Errorf("JSON \"Critical\" = %v, %v", s, err)
	}
	for _, v := range []Severity{Info, Warning, Critical} {
		if got, err := ParseSeverity(v.String()); err != nil || got != v {
			t.Errorf("%v does not read back: %v, %v", v, got, err)
		}
	}
}
