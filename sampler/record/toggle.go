package record

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
)

// Toggle records a live stream on demand: the dashboard's `r` key. Write is
// called for every snapshot from the collector's side, with the findings
// the collector computed (what the screen shows); Flip from the UI. Safe
// for use from both goroutines.
//
// A recording that fails (disk full, an entry that does not encode) is
// stopped at once, keeping what was written; State says so with the file's
// name, so the dashboard never shows a recording badge over a dead file.
type Toggle struct {
	dir      string
	interval func() time.Duration

	mu      sync.Mutex
	w       *Writer
	path    string
	n       int
	last    *sampler.Snapshot // newest snapshot seen, for the header
	failure string            // why the last recording stopped by itself; "" if it did not
}

// NewToggle records into dir (created files are named by the start time).
func NewToggle(dir string, interval func() time.Duration) *Toggle {
	return &Toggle{dir: dir, interval: interval}
}

// maxSameSecond bounds the suffixes tried for recordings started within one
// second (-2, -3, ...): far more than a person can press r.
const maxSameSecond = 100

// Flip starts a recording to dir/gpuscope-YYYYMMDD-HHMMSS.jsonl.gz (with a
// -2, -3 ... suffix when that name exists: a recording is never
// overwritten), or stops the current one. It returns a line for the user.
func (t *Toggle) Flip(now time.Time) (status string, on bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		status, err := t.stop()
		return status, false, err
	}
	var first sampler.Snapshot
	if t.last != nil {
		first = *t.last
	}
	base := filepath.Join(t.dir, "gpuscope-"+now.Format("20060102-150405"))
	for i := 1; i <= maxSameSecond; i++ {
		path := base + ".jsonl.gz"
		if i > 1 {
			path = fmt.Sprintf("%s-%d.jsonl.gz", base, i)
		}
		w, err := Create(path, HeaderFor(first, t.interval()))
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", false, err
		}
		t.w, t.path, t.n, t.failure = w, path, 0, ""
		return "recording to " + path + " (r stops)", true, nil
	}
	return "", false, fmt.Errorf("%s.jsonl.gz and %d more names like it exist; not overwriting", base, maxSameSecond-1)
}

// Start records into w, a file the caller created (`gpuscope record -o
// FILE`, with its own rules on overwriting), as Flip does into a file it
// names; the header is the caller's. It fails when a recording is open.
func (t *Toggle) Start(w *Writer) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		return fmt.Errorf("already recording to %s", t.path)
	}
	t.w, t.path, t.n, t.failure = w, w.Path(), 0, ""
	return nil
}

// Count is how many snapshots the current (or the last) recording holds.
func (t *Toggle) Count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// stop closes the open recording and says what it holds.
func (t *Toggle) stop() (string, error) {
	err := t.w.Close()
	status := fmt.Sprintf("recording stopped: %s in %s", sampler.Counted(t.n, "snapshot", "snapshots"), t.path)
	t.w = nil
	if err != nil {
		return status, fmt.Errorf("recording %s did not close cleanly (%s written): %w", t.path, sampler.Counted(t.n, "snapshot", "snapshots"), err)
	}
	return status, nil
}

// Path is the file of the current (or the last) recording.
func (t *Toggle) Path() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.path
}

// Recording reports whether a recording is open.
func (t *Toggle) Recording() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.w != nil
}

// State reports whether a recording is open and, when the last one stopped
// by itself (a failed write), why, naming the file.
func (t *Toggle) State() (on bool, failure string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.w != nil, t.failure
}

// FindingsJSON is findings that encode themselves to the bytes
// jsonv1.Marshal writes of them, Toggle.Write's to ask only while
// recording: ui/cli's keeps each finding's text while the finding is only
// seen again, where marshalling them all was ~10 % of recording a day
// (docs/benchmarks.md, "Recording a day: the encoder and the findings").
type FindingsJSON interface{ FindingsJSON() ([]byte, error) }

// Write appends s and findings (JSON-encoded here, only while recording)
// to the open recording, if any. When that fails the recording is stopped
// (what was written stays readable) and the error, naming the file, is
// returned once; later calls return nil.
func (t *Toggle) Write(s sampler.Snapshot, findings any) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = &s
	if t.w == nil {
		return nil
	}
	e := Entry{Snapshot: s}
	var err error
	var p *pieces
	if findings != nil {
		var raw []byte
		if fj, ok := findings.(FindingsJSON); ok {
			raw, err = fj.FindingsJSON()
		} else {
			raw, err = jsonv1.Marshal(findings)
		}
		if err != nil {
			err = fmt.Errorf("encode findings: %w", err)
		}
		e.Findings = raw
		if fi, ok := findings.(FindingsItems); ok && err == nil {
			if items, seen, ok := fi.FindingsItems(); ok {
				p = &pieces{items, seen}
			}
		}
	}
	if err == nil {
		err = t.w.write(e, p)
	}
	if err == nil {
		t.n++
		return nil
	}
	_, cerr := t.stop()
	err = fmt.Errorf("recording stopped: %w; %s kept in %s", errors.Join(err, cerr), sampler.Counted(t.n, "snapshot", "snapshots"), t.path)
	t.failure = err.Error()
	return err
}

// Stop ends an open recording (on quit) and returns a line naming the file,
// or "" when none was open. The error says when the file did not close
// cleanly (a missing gzip trailer, a full disk).
func (t *Toggle) Stop() (status string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w == nil {
		return "", nil
	}
	return t.stop()
}
