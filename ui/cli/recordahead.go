package cli

import (
	"context"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// ticksAhead samples the simulated clock from start+interval to before end
// on its own goroutine, a few snapshots ahead of the diagnosis that reads
// them: with the writer's goroutine, `record --demo` runs as three stages
// (sample → diagnose → write) on the two cores a day's recording has,
// where sampling and diagnosing shared one (docs/benchmarks.md, "Recording
// a day: the window kept"). The snapshots come in order, each whole before
// it is sent (the sampler keeps nothing of it), and the channel closes at
// end or once ctx ends.
func ticksAhead(ctx context.Context, s *sampler.Sampler, start, end time.Time, interval time.Duration) <-chan sampler.Snapshot {
	out := make(chan sampler.Snapshot, ticksAheadBacklog)
	go func() {
		defer close(out)
		for t := start.Add(interval); t.Before(end); t = t.Add(interval) {
			select {
			case out <- s.Tick(t):
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// ticksAheadBacklog: enough to even out the diagnosis's uneven seconds
// (a finding's words, a GC) without holding more than a few MB.
const ticksAheadBacklog = 64
