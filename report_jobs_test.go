package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportNamesJobsOfARecording: a recording's stored findings are
// reported as recorded, and its host processes are still read, so the
// energy and GPU-hours by job group a launcher's ranks by their parent and
// name the user (the demo's mixed node: alice's resnet50 on GPU 0).
func TestReportNamesJobsOfARecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mixed.jsonl.gz")
	var out, errb bytes.Buffer
	if got := run([]string{"record", "-o", path, "--demo=mixed", "--duration", "2m"}, &out, &errb); got != 0 {
		t.Fatalf("record: status %d\n%s", got, errb.String())
	}
	out.Reset()
	if got := run([]string{"report", path}, &out, &errb); got != 0 {
		t.Fatalf("report: status %d\n%s", got, errb.String())
	}
	for _, want := range []string{"alice  GPUs 0", "by user: alice "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report of a recording lacks %q (jobs and users by host process):\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "  n/a  GPUs 0") {
		t.Errorf("GPU 0's job has no user:\n%s", out.String())
	}
}
