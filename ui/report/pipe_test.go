package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// feedFIFO makes a named pipe and writes data into it once, as a shell's
// <(...) or "cmd | gpuscope report /dev/stdin" would: a reader that opened
// the path twice would block or read nothing the second time.
func feedFIFO(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	return p
}

func TestBuildFileReadsAFIFOOnce(t *testing.T) {
	dmon := "# gpu   pwr gtemp    sm   mem\n# Idx     W     C     %     %\n    0   300    60   99    40\n    0   301    61   98    41\n"
	r, err := BuildFile(feedFIFO(t, []byte(dmon)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Range.Samples != 2 || r.Format != "nvidia-smi-dmon" {
		t.Fatalf("read %d samples as %q, want 2 as nvidia-smi-dmon", r.Range.Samples, r.Format)
	}
}

// A recording through a pipe keeps its stored findings: the recording
// reader takes the same peeked stream instead of reopening the path.
func TestBuildFileRecordingThroughFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl.gz")
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	w, err := record.Create(path, record.Header{Host: "n1", IntervalMS: 1000})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := json.Marshal([]diagnose.Finding{{Rule: diagnose.RuleECCErrors, Severity: diagnose.Critical, GPU: 0, Title: "ecc"}})
	for i := range 3 {
		s := sampler.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i + 1),
			Node: sampler.Node{Source: "nvml"}, GPUs: []sampler.GPU{{Index: 0, Util: sampler.Some(50)}}}
		if err := w.Write(record.Entry{Snapshot: s, Findings: f}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := BuildFile(feedFIFO(t, data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.FindingsFrom != "recording" || findRule(r, diagnose.RuleECCErrors, 0) == nil || r.Range.Samples != 3 {
		t.Fatalf("from %q, %d samples, findings %+v; want the recording's ecc finding over 3", r.FindingsFrom, r.Range.Samples, r.Findings)
	}
}
