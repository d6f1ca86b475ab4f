package cli

import (
	"errors"
	"testing"
)

// TestAlertMinSpellings: --alert-min reads a severity as a person types
// it (diagnose.ParseSeverity), and a wrong one is a usage error.
func TestAlertMinSpellings(t *testing.T) {
	for _, min := range []string{"warning", "Critical", "warn", " info "} {
		n, _, err := alertFlags{webhook: "http://127.0.0.1:9/hook", format: "json", min: min}.notifier(nil)
		if err != nil {
			t.Errorf("--alert-min %q: %v", min, err)
			continue
		}
		n.Close(0)
	}
	_, _, err := alertFlags{webhook: "http://127.0.0.1:9/hook", format: "json", min: "severe"}.notifier(nil)
	var u usageError
	if !errors.As(err, &u) {
		t.Errorf("--alert-min severe: %v, want a usage error", err)
	}
}
