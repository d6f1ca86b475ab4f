package promexport

import (
	"context"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/sampler"
)

// Feed runs the collector over s until ctx ends and publishes each frame:
// the same one loop and one diagnosis (diagnose/pipeline) the dashboard
// and its recorder use, so /metrics and the screen agree. history (a
// demo's pre-rolled minutes) is diagnosed and published first, so findings
// are open from the first scrape. Scrapes only read what was published.
func Feed(ctx context.Context, s *sampler.Sampler, history []sampler.Snapshot, pub Publisher) {
	col := pipeline.New(s, pipeline.Options{Record: func(f diagnose.Frame) error {
		var findings []diagnose.Finding
		if f.Diagnosis != nil {
			findings = f.Diagnosis.Findings
		}
		pub.Publish(f.Snapshot, findings)
		return nil
	}})
	for _, snap := range history {
		col.Push(snap)
	}
	col.Run(ctx, nil)
}
