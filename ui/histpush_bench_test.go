package ui

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// BenchmarkHistoryPush is one snapshot of the fixture's 8-GPU node (16
// host processes) into a full five-minute history: the snapshot that
// leaves the two minutes of whole ones made a point (histpoint.go), the
// oldest point dropped.
func BenchmarkHistoryPush(b *testing.B) {
	h := newHistory(historySpan, defaultWindow)
	snaps := make([]sampler.Snapshot, 400)
	for i := range snaps {
		snaps[i] = fixtureSnapshot(i)
	}
	for _, s := range snaps {
		h.push(s)
	}
	i := 0
	for b.Loop() {
		s := snaps[i%len(snaps)]
		s.Time = t0.Add(time.Duration(len(snaps)+i) * time.Second)
		h.push(s)
		i++
	}
}
