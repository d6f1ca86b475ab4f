package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestErrorLinesEscapeControls: an error quoting a file name or a file's
// contents shows control characters escaped.
func TestErrorLinesEscapeControls(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"report", t.TempDir() + "/run\x1b]0;PWNED\a.jsonl"}, &out, &errb)
	if code == 0 {
		t.Fatal("a missing file must fail")
	}
	if strings.ContainsAny(errb.String(), "\x1b\a") || !strings.Contains(errb.String(), "run^[]0;PWNED^G.jsonl") {
		t.Errorf("stderr %q", errb.String())
	}
}
