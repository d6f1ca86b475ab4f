package replay

import (
	"github.com/gpuscope/gpuscope/sampler/record/spool"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// TestHostileRecordingReplaysEscaped: escape sequences stored in a
// recording's command lines and names are shown escaped, never sent.
func TestHostileRecordingReplaysEscaped(t *testing.T) {
	tl := sharedTimeline(t)[:30]
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	w, err := record.Create(path, record.HeaderFor(tl[0], time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tl {
		s.Node.Hostname = "node\x1b]0;TITLE\a"
		p := &sampler.Proc{PID: 4242, User: "mallory", Cmdline: "python \x1b]0;PWNED\a train.py \x1b[2J"}
		s.Host = &sampler.Host{Procs: map[int]*sampler.Proc{4242: p}}
		s.GPUs = append([]sampler.GPU(nil), s.GPUs...)
		s.GPUs[0].Procs = []sampler.GPUProc{{PID: 4242, Type: "C", MemUsed: sampler.Some(1 << 30), Host: p}}
		if err := w.Write(record.Entry{Snapshot: s}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	loaded, _, err := spool.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := newReplayOf(t, loaded, Options{Name: "hostile.jsonl"}, 200, 60)
	m = press(t, m, "end")
	v := m.View()
	if strings.ContainsAny(v, "\x1b\a") {
		t.Fatalf("control characters reach the terminal:\n%q", v)
	}
	if !strings.Contains(v, "^[]0;") {
		t.Errorf("hostile strings not shown escaped:\n%s", v)
	}
}

// TestWarningsShownInTheView: the reader's warnings (a torn last line) are
// on screen above the timeline until the first key, not on stderr behind
// the full screen; the view still fits.
func TestWarningsShownInTheView(t *testing.T) {
	tl := sharedTimeline(t)[:20]
	m, _ := newReplayOf(t, tl, Options{Warnings: []string{"run.jsonl: line 21: torn last line (recording was cut off); read 20 snapshots", "x"}}, 120, 30)
	v := m.View()
	if !strings.Contains(v, "torn last line") || !strings.Contains(v, "+1 more") {
		t.Fatalf("warning not in the view:\n%s", v)
	}
	if lines := strings.Count(v, "\n") + 1; lines > 30 {
		t.Errorf("%d lines on a 30-line screen", lines)
	}
	m = press(t, m, "right")
	if v := m.View(); strings.Contains(v, "torn last line") || m.Cursor() != 1 {
		t.Errorf("a key hides the warning and still acts: cursor %d\n%s", m.Cursor(), v)
	}
}
