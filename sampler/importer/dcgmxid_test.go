package importer

import (
	"strings"
	"testing"
	"time"
)

// DCGM's "Detected XID N for GPU M" in a checker's JSON lines is an Xid on
// GPU index M; the health event that repeats the test's detail is the same
// Xid, counted once; the line's timestamp dates it.
func TestDCGMXidMessagesInJSONLines(t *testing.T) {
	in := `preflight {"event": "Test fail", "gpu": "GPU-5c7f", "detail": "Detected XID 45 for GPU 2 Please consult the documentation for details of this XID.", "timestamp": "2026-06-04T06:08:10.021979Z"}` + "\n" +
		`preflight {"event": "Loaded 121 DCGM error mappings", "level": "info"}` + "\n" +
		`preflight {"event": "Sending health event", "error_code": "DCGM_FR_XID_ERROR", "event_message": "Detected XID 45 for GPU 2 Please consult"}` + "\n" +
		`preflight {"event": "Test fail", "detail": "Detected XID 79 for GPU 0", "timestamp": "2026-06-04T06:08:11Z"}` + "\n"
	snaps, ev := readPaste(t, in)
	last := snaps[len(snaps)-1]
	got := map[int][]uint64{}
	for _, g := range last.GPUs {
		for _, x := range g.Xids {
			got[g.Index] = append(got[g.Index], x.Code)
		}
	}
	if len(got) != 2 || len(got[2]) != 1 || got[2][0] != 45 || len(got[0]) != 1 || got[0][0] != 79 {
		t.Fatalf("Xids by GPU index %v, want GPU 2: [45] (once), GPU 0: [79]\n%s", got, strings.Join(ev.Sections(), "\n"))
	}
	want := time.Date(2026, 6, 4, 6, 8, 10, 21979000, time.UTC)
	if !last.Time.Equal(want) {
		t.Errorf("snapshot dated %v, want the log's own stamp %v", last.Time, want)
	}
	if w := ev.Where(2, "xids"); !strings.Contains(w, "line 1") {
		t.Errorf("GPU 2's Xid read from %q, want line 1", w)
	}
}
