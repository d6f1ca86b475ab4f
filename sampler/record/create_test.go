package record

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestCreateNeverOverwritesOrFollowsLinks: a link planted in a shared
// directory under the name a recording will use is refused and its target
// left untouched; an existing file is refused; the file is private.
func TestCreateNeverOverwritesOrFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "gpuscope-20260101-120000.jsonl.gz")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	for name, create := range map[string]func(string, Header) (*Writer, error){"Create": Create, "Overwrite": Overwrite} {
		if w, err := create(link, Header{}); err == nil {
			w.Close()
			t.Errorf("%s wrote through a symbolic link", name)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Fatalf("the link's target was changed: %q", b)
	}
	if _, err := Create(victim, Header{}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Create over an existing file: %v, want fs.ErrExist", err)
	}
	fresh := filepath.Join(dir, "new.jsonl")
	w, err := Create(fresh, Header{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if st, _ := os.Stat(fresh); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600: recordings hold other users' command lines", st.Mode().Perm())
	}
	w, err = Overwrite(victim, Header{}) // record --force
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if b, _ := os.ReadFile(victim); strings.Contains(string(b), "precious") {
		t.Error("Overwrite did not truncate")
	}
}

// TestToggleTwiceInOneSecondKeepsBoth: pressing r, r, r within a second
// makes new files; the first recording is never truncated.
func TestToggleTwiceInOneSecondKeepsBoth(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tg := NewToggle(dir, func() time.Duration { return time.Second })
	var paths []string
	for i := range 2 {
		status, on, err := tg.Flip(t0)
		if err != nil || !on {
			t.Fatal(status, err)
		}
		paths = append(paths, strings.TrimSuffix(strings.TrimPrefix(status, "recording to "), " (r stops)"))
		for j := range 3 + i {
			if err := tg.Write(sampler.Snapshot{Time: t0, Seq: uint64(j)}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := tg.Flip(t0); err != nil {
			t.Fatal(err)
		}
	}
	if paths[0] == paths[1] || !strings.HasSuffix(paths[1], "-120000-2.jsonl.gz") {
		t.Fatalf("paths %v", paths)
	}
	for i, p := range paths {
		if n := countEntries(t, p); n != 3+i {
			t.Errorf("%s holds %d snapshots, want %d", p, n, 3+i)
		}
	}
}

// TestToggleStopsOnWriteError: a write that fails (here the file is gone
// from under the writer, as with a full disk) stops the recording at once,
// keeps what was written, and says why with the file's name, once.
func TestToggleStopsOnWriteError(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tg := NewToggle(dir, func() time.Duration { return time.Second })
	status, _, err := tg.Flip(t0)
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimSuffix(strings.TrimPrefix(status, "recording to "), " (r stops)")
	for i := range 2 {
		if err := tg.Write(sampler.Snapshot{Time: t0, Seq: uint64(i)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	tg.w.f.Close() // every later write fails
	err = tg.Write(sampler.Snapshot{Time: t0, Seq: 9}, nil)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "2 snapshots kept") {
		t.Fatalf("write error %v: want it to name %s and what was kept", err, path)
	}
	on, failure := tg.State()
	if on || failure != err.Error() {
		t.Fatalf("after a failed write: on %v, failure %q", on, failure)
	}
	if err := tg.Write(sampler.Snapshot{Time: t0}, nil); err != nil {
		t.Errorf("the error is reported once; then %v", err)
	}
	if n := countEntries(t, path); n != 2 {
		t.Errorf("kept %d snapshots, want 2", n)
	}
	if status, err := tg.Stop(); status != "" || err != nil {
		t.Errorf("nothing left to stop: %q %v", status, err)
	}
}

// TestToggleStopReportsCloseError: quitting while recording closes the file
// and reports a close that failed, naming the file.
func TestToggleStopReportsCloseError(t *testing.T) {
	tg := NewToggle(t.TempDir(), func() time.Duration { return time.Second })
	status, _, err := tg.Flip(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimSuffix(strings.TrimPrefix(status, "recording to "), " (r stops)")
	tg.w.f.Close() // the gzip trailer cannot be written
	if _, err := tg.Stop(); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "gzip trailer") {
		t.Fatalf("Stop: %v", err)
	}
}

func countEntries(t *testing.T, path string) int {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for {
		if _, err := r.Next(); err != nil {
			return n
		}
		n++
	}
}

// TestToggleStopsOnFindingsEncodeError: findings that do not encode stop
// the recording with a message, instead of being stored as nothing.
func TestToggleStopsOnFindingsEncodeError(t *testing.T) {
	tg := NewToggle(t.TempDir(), func() time.Duration { return time.Second })
	if _, _, err := tg.Flip(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	err := tg.Write(sampler.Snapshot{}, []float64{math.NaN()}) // JSON has no NaN
	if err == nil || !strings.Contains(err.Error(), "encode findings") || tg.Recording() {
		t.Fatalf("Write: %v, recording %v", err, tg.Recording())
	}
}
