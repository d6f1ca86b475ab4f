package promexport

import (
	"context"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/sampler"
)

// StateSink publishes each frame of the one loop to the exporter's state.
func StateSink(pub Publisher) pipeline.Sink {
	return pipeline.Sink{Name: "exporter", Take: func(f diagnose.Frame) error {
		pub.Publish(f.Snapshot, f.Findings())
		return nil
	}}
}

// Feed runs the collector over s until ctx ends and publishes each frame:
// the same one loop and one diagnosis (diagnose/pipeline) the dashboard
// and its recorder use, so /metrics and the screen agree. history (a
// demo's pre-rolled minutes) is diagnosed and published first, so findings
// are open from the first scrape. Scrapes only read what was published.
// more are sinks beside the exporter's (alerts), fed the same frames.
func Feed(ctx context.Context, s *sampler.Sampler, history []sampler.Snapshot, pub Publisher, more ...pipeline.Sink) {
	col := pipeline.New(s, pipeline.Options{Sinks: append([]pipeline.Sink{StateSink(pub)}, more...)})
	for _, snap := range history {
		col.Push(snap)
	}
	col.Run(ctx, nil)
}
