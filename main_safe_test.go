package main

import (
	"bytes"
	"os"
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

// TestRecordRefusesExistingFileWithoutForce: record -o over an existing
// file asks for --force (exit 2, one line) and leaves the file alone.
func TestRecordRefusesExistingFileWithoutForce(t *testing.T) {
	path := t.TempDir() + "/run.jsonl"
	if err := os.WriteFile(path, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"record", "-o", path, "--demo", "--duration", "3s"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--force") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me\n" {
		t.Fatalf("file changed: %q", b)
	}
	errb.Reset()
	if code := run([]string{"record", "-o", path, "--demo", "--duration", "3s", "--force"}, &out, &errb); code != 0 {
		t.Fatalf("--force: exit %d, stderr %q", code, errb.String())
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "keep me") {
		t.Fatal("--force did not overwrite")
	}
}

// TestEmptyFlagValues: --theme "" is a mistake (exit 2), and --demo= is the
// default scenario, as --demo is, not the live node.
func TestEmptyFlagValues(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--demo", "--theme", ""}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--theme is empty") {
		t.Errorf("--theme \"\": exit %d, stderr %q", code, errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"--demo=", "--once"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "[demo:mixed]") {
		t.Errorf("--demo=: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
