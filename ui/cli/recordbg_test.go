package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// A write that fails on the background goroutine comes back: from a later
// write (so the recording loop stops) and from wait.
func TestBackgroundWriterReportsFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	s := sampler.Snapshot{Time: time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC),
		GPUs: []sampler.GPU{{Index: 0, Name: "Test GPU", Util: sampler.Some(1)}}}
	w, err := record.Create(path, record.HeaderFor(s, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	rec := record.NewToggle("", func() time.Duration { return time.Second })
	if err := rec.Start(w); err != nil {
		t.Fatal(err)
	}
	w.Close() // every write now fails underneath the Toggle
	bg := startBackgroundWriter(rec)
	var werr error
	for i := 0; i < 1000 && werr == nil; i++ {
		werr = bg.write(diagnose.Frame{Snapshot: s})
		time.Sleep(time.Millisecond)
	}
	if werr == nil || !strings.Contains(werr.Error(), "recording stopped") {
		t.Fatalf("writes after a failure returned %v, want the failure", werr)
	}
	if err := bg.wait(); err == nil || err.Error() != werr.Error() {
		t.Fatalf("wait = %v, want the first failure %v", err, werr)
	}
}
