package ui

import (
	"errors"
	"github.com/gpuscope/gpuscope/diagnose"
	"strings"
	"testing"
)

// r toggles the injected recorder, shows its outcome in the footer and a REC
// badge in the header while it runs; without a recorder it says so.
func TestRecordKey(t *testing.T) {
	m, _ := fixtureModel(30, 120, 40)
	calls := 0
	m.c.opts.Record = func() (string, bool, error) {
		calls++
		if calls == 1 {
			return "recording to gpuscope-x.jsonl.gz (r stops)", true, nil
		}
		return "recording stopped: 2 snapshots in gpuscope-x.jsonl.gz", false, nil
	}
	m = press(m, "r")
	v := m.View()
	if first := strings.SplitN(v, "\n", 2)[0]; !strings.Contains(first, "REC") {
		t.Errorf("no REC badge in the header: %q", first)
	}
	if !strings.Contains(v, "recording to gpuscope-x.jsonl.gz") {
		t.Error("outcome not in the footer")
	}
	m = press(m, "r")
	if v := m.View(); strings.Contains(strings.SplitN(v, "\n", 2)[0], "REC") || !strings.Contains(v, "recording stopped") {
		t.Error("badge still on, or stop not reported")
	}
	m.c.opts.Record = func() (string, bool, error) { return "", false, errors.New("permission denied") }
	if v := press(m, "r").View(); !strings.Contains(v, "recording: permission denied") {
		t.Error("error not reported")
	}
	m.c.opts.Record = nil
	if v := press(m, "r").View(); !strings.Contains(v, "recording is off here") {
		t.Error("missing recorder not explained")
	}
}

// TestRecordFailureShownAtOnce: a recording that fails (disk full) turns
// the REC badge off on the next snapshot and says why, naming the file,
// instead of the sticky "recording to …" line.
func TestRecordFailureShownAtOnce(t *testing.T) {
	m, _ := fixtureModel(30, 120, 40)
	on, failure := true, ""
	m.c.opts.Record = func() (string, bool, error) { return "recording to gpuscope-x.jsonl.gz (r stops)", true, nil }
	m.c.opts.RecordState = func() (bool, string) { return on, failure }
	m = press(m, "r")
	on, failure = false, "recording stopped: gpuscope-x.jsonl.gz: write: no space left on device; 12 snapshots kept in gpuscope-x.jsonl.gz"
	m = m.Push(diagnose.Frame{Snapshot: fixtureSnapshot(30)})
	v := m.View()
	if strings.Contains(strings.SplitN(v, "\n", 2)[0], "REC") {
		t.Error("REC badge still on over a failed recording")
	}
	if !strings.Contains(v, "no space left on device") {
		t.Errorf("failure not shown:\n%s", v)
	}
}
