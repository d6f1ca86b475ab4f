package record

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

type countingWriter struct {
	seqs   []uint64
	failAt int
}

func (c *countingWriter) Write(s sampler.Snapshot, _ any) error {
	if len(c.seqs) == c.failAt {
		return errors.New("disk full")
	}
	c.seqs = append(c.seqs, s.Seq)
	return nil
}

// Lines are written in order; after a failed write the next Write says so
// and Wait returns the error, with nothing written after it.
func TestAsyncWritesInOrderAndStopsAtTheFirstError(t *testing.T) {
	w := &countingWriter{failAt: -1}
	a := NewAsync(w)
	for i := uint64(1); i <= 1000; i++ {
		if err := a.Write(sampler.Snapshot{Seq: i}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Wait(); err != nil || len(w.seqs) != 1000 || w.seqs[0] != 1 || w.seqs[999] != 1000 {
		t.Fatalf("wrote %d lines (%v), err %v", len(w.seqs), w.seqs[:min(3, len(w.seqs))], err)
	}
	w = &countingWriter{failAt: 5}
	a = NewAsync(w)
	var werr error
	for i := uint64(1); i <= 10000 && werr == nil; i++ {
		werr = a.Write(sampler.Snapshot{Seq: i}, nil)
	}
	if err := a.Wait(); err == nil || len(w.seqs) != 5 {
		t.Errorf("after the failure: %d lines written, Wait %v", len(w.seqs), err)
	}
}

// Through a real Toggle whose file is gone: a later Write and Wait both
// return the Toggle's failure.
func TestAsyncReportsAToggleFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	s := sampler.Snapshot{Time: time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC),
		GPUs: []sampler.GPU{{Index: 0, Name: "Test GPU", Util: sampler.Some(1)}}}
	w, err := Create(path, HeaderFor(s, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	rec := NewToggle("", func() time.Duration { return time.Second })
	if err := rec.Start(w); err != nil {
		t.Fatal(err)
	}
	w.Close() // every write now fails underneath the Toggle
	a := NewAsync(rec)
	var werr error
	for i := 0; i < 1000 && werr == nil; i++ {
		werr = a.Write(s, nil)
		time.Sleep(time.Millisecond)
	}
	if werr == nil || !strings.Contains(werr.Error(), "recording stopped") {
		t.Fatalf("writes after a failure returned %v, want the failure", werr)
	}
	if err := a.Wait(); err == nil || err.Error() != werr.Error() {
		t.Fatalf("Wait = %v, want the first failure %v", err, werr)
	}
}
