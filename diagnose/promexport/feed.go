package promexport

import (
	"context"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// Feed samples s at its interval until ctx ends, diagnoses each tick with a
// diagnose.Tracker (as `gpuscope record` does) and publishes it. history (a
// demo's pre-rolled minutes) is diagnosed and published first, so findings
// are open from the first scrape. This is the one sampling loop of
// `gpuscope serve`: scrapes only read what it published.
func Feed(ctx context.Context, s *sampler.Sampler, history []sampler.Snapshot, pub Publisher) {
	tracker := diagnose.NewTracker(diagnose.Options{})
	for _, snap := range history {
		pub.Publish(snap, tracker.Push(snap))
	}
	out := make(chan sampler.Snapshot, 1)
	go s.Run(ctx, out, nil)
	for {
		select {
		case <-ctx.Done():
			return
		case snap := <-out:
			pub.Publish(snap, tracker.Push(snap))
		}
	}
}
