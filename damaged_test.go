package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/record/spool"
)

// damagedLine is the line of a 300-line recording the tests overwrite, as
// in docs/security.md "Hostile files" ("line 150: not a snapshot").
const damagedLine = 150

// recordDemo writes a real 5-minute recording (the header and 300 lines)
// through the recorder.
func recordDemo(t *testing.T, path string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"record", "-o", path, "--demo=input_starved", "--duration", "5m"}, &out, &errb); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errb.String())
	}
}

// damageLine overwrites bytes in the middle of line no (1-based, the header
// is line 1) as a disk error would, keeping the newlines.
func damageLine(t *testing.T, path string, no int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	l := lines[no-1]
	copy(l[len(l)/3:], bytes.Repeat([]byte{0xff, 0x00, '}', '{'}, 64))
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
}

// One damaged line in the middle of a recording is skipped with a warning
// that names it and counts what was skipped, in report, check --from,
// compare and replay's loader; everything else is read. On main report
// refused the file: "line 150: not a snapshot".
func TestDamagedMiddleLineIsSkipped(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.jsonl"), filepath.Join(dir, "bad.jsonl")
	recordDemo(t, good)
	b, _ := os.ReadFile(good)
	_ = os.WriteFile(bad, b, 0o600)
	damageLine(t, bad, damagedLine)
	const want = "line 150: skipped, damaged"
	wantCount := "1 damaged line skipped"

	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"report", bad}, 0},
		{[]string{"check", "--from", bad}, 1}, // input_starved is a warning
		{[]string{"compare", good, bad}, 0},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		all := out.String() + errb.String()
		if code != c.code || !strings.Contains(all, want) || !strings.Contains(all, wantCount) {
			t.Errorf("%v: exit %d (want %d); want %q and %q in the output:\n%s", c.args, code, c.code, want, wantCount, tail(all))
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"report", "--format", "json", bad}, &out, &errb); code != 0 || !strings.Contains(out.String(), `"samples": 299`) {
		t.Errorf("report --format json: exit %d, want 299 snapshots read: %s", code, tail(out.String()+errb.String()))
	}
	sp, _, err := spool.Open(bad, "")
	if err != nil {
		t.Fatalf("replay's loader: %v", err)
	}
	defer sp.Close()
	deadline := time.Now().Add(20 * time.Second)
	for !sp.Progress().Done && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	p := sp.Progress()
	if p.Err != nil || sp.Len() != 299 || !strings.Contains(strings.Join(p.Warnings, "\n"), want) {
		t.Errorf("replay's loader: %d snapshots (want 299), err %v, warnings %q", sp.Len(), p.Err, p.Warnings)
	}
}

// A file where no line after the header is readable is still refused.
func TestNothingReadableIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	recordDemo(t, path)
	b, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(b, []byte("\n"))
	for i := 1; i < len(lines) && i < 4; i++ {
		copy(lines[i][len(lines[i])/3:], "\x00\x00\x00")
	}
	_ = os.WriteFile(path, bytes.Join(lines[:4], nil), 0o600)
	var out, errb bytes.Buffer
	code := run([]string{"report", path}, &out, &errb)
	if code == 0 || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), "no line is a readable snapshot") {
		t.Errorf("report of a file with nothing readable: exit %d, stderr %q", code, errb.String())
	}
}

// A damaged stretch of a gzip recording costs the lines up to the end of
// its gzip member: the recorder starts a member every linesPerMember lines,
// each with a whole line, and readers resume at the next one. On main the
// bytes after the damage decoded as garbage to the end of the file.
func TestDamagedGzipMemberIsSkipped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl.gz")
	var out, errb bytes.Buffer
	if code := run([]string{"record", "-o", path, "--demo=input_starved", "--duration", "30m"}, &out, &errb); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errb.String())
	}
	b, _ := os.ReadFile(path)
	at := len(b) / 6 // inside the first of three members
	for i := range 32 {
		b[at+i] ^= 0x5a
	}
	_ = os.WriteFile(path, b, 0o600)
	out.Reset()
	errb.Reset()
	if code := run([]string{"report", "--format", "json", path}, &out, &errb); code != 0 {
		t.Fatalf("report: exit %d: %s", code, tail(errb.String()))
	}
	var rep struct {
		Range    struct{ Samples int }
		Warnings []string
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	w := strings.Join(rep.Warnings, "\n")
	if rep.Range.Samples < 1800-600 || !strings.Contains(w, "gzip data damaged") {
		t.Errorf("read %d of 1800 snapshots (want all but one member's 600 at most); warnings:\n%s", rep.Range.Samples, w)
	}
	t.Logf("read %d of 1800 snapshots past a damaged gzip member; warnings:\n%s", rep.Range.Samples, w)
}
