package record

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Toggle records a live stream on demand: the dashboard's `r` key. Write is
// called for every snapshot from the collector's side, with the findings
// the collector computed (what the screen shows); Flip from the UI. Safe
// for use from both goroutines.
type Toggle struct {
	dir      string
	interval func() time.Duration

	mu   sync.Mutex
	w    *Writer
	path string
	n    int
	last *sampler.Snapshot // newest snapshot seen, for the header
}

// NewToggle records into dir (created files are named by the start time).
func NewToggle(dir string, interval func() time.Duration) *Toggle {
	return &Toggle{dir: dir, interval: interval}
}

// Flip starts a recording to dir/gpuscope-YYYYMMDD-HHMMSS.jsonl.gz, or stops
// the current one. It returns a line for the user.
func (t *Toggle) Flip(now time.Time) (status string, on bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		err := t.w.Close()
		status = fmt.Sprintf("recording stopped: %d snapshots in %s", t.n, t.path)
		t.w, t.n = nil, 0
		return status, false, err
	}
	path := filepath.Join(t.dir, "gpuscope-"+now.Format("20060102-150405")+".jsonl.gz")
	var first sampler.Snapshot
	if t.last != nil {
		first = *t.last
	}
	w, err := Create(path, HeaderFor(first, t.interval()))
	if err != nil {
		return "", false, err
	}
	t.w, t.path = w, path
	return "recording to " + path + " (r stops)", true, nil
}

// Recording reports whether a recording is open.
func (t *Toggle) Recording() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.w != nil
}

// Write appends s and findings (JSON-encoded here, only while recording)
// to the open recording, if any.
func (t *Toggle) Write(s sampler.Snapshot, findings any) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = &s
	if t.w == nil {
		return nil
	}
	e := Entry{Snapshot: s}
	if findings != nil {
		raw, err := json.Marshal(findings)
		if err != nil {
			return fmt.Errorf("record: encode findings: %w", err)
		}
		e.Findings = raw
	}
	if err := t.w.Write(e); err != nil {
		return err
	}
	t.n++
	return nil
}

// Close ends an open recording (on quit).
func (t *Toggle) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w == nil {
		return nil
	}
	err := t.w.Close()
	t.w = nil
	return err
}
