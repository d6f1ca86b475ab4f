package sampler

import (
	"io"
	"testing"
	"time"
)

// TestSnapshotsBothWays: by index it is the slice; Next reads it once,
// front first, then io.EOF, without touching the caller's slice.
func TestSnapshotsBothWays(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	all := []Snapshot{{Seq: 1, Time: t0}, {Seq: 2, Time: t0.Add(time.Second)}}
	s := Snapshots(all)
	if s.Len() != 2 || !s.Time(1).Equal(t0.Add(time.Second)) || s.At(0).Seq != 1 {
		t.Fatalf("by index: len %d, time %v, seq %d", s.Len(), s.Time(1), s.At(0).Seq)
	}
	for want := uint64(1); want <= 2; want++ {
		if got, raw, err := s.Next(); err != nil || raw != nil || got.Seq != want {
			t.Fatalf("Next = seq %d, %q, %v; want seq %d", got.Seq, raw, err, want)
		}
	}
	if _, _, err := s.Next(); err != io.EOF {
		t.Errorf("Next past the end = %v, want io.EOF", err)
	}
	if len(all) != 2 || all[0].Seq != 1 {
		t.Errorf("reading took from the caller's slice: %v", all)
	}
}
