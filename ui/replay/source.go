package replay

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record/spool"
)

// Source is a timeline the replay reads by index, oldest first: the times
// of every snapshot (a seek searches them) and any one snapshot on demand,
// so a long recording need not be held decoded in memory. A Source may
// grow while the replay runs (a spool still loading: see loadingSource).
// sampler.Snapshots is one held in memory.
type Source interface {
	Len() int
	Time(i int) time.Time
	At(i int) sampler.Snapshot
}

// loadingSource is a Source still being filled (spool.Spool while its
// loader runs): the replay paints what is there and polls how far it got.
type loadingSource interface {
	Source
	Progress() spool.Progress
}
