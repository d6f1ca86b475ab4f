package importer

import (
	"bufio"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// recording adapts a gpuscope recording to Stream. Snapshots keep the
// Node.Source they were recorded with (the format is lossless); the
// findings stored beside them are dropped here — replay reads them with
// sampler/record directly.
type recording struct{ r *record.Reader }

func newRecording(br *bufio.Reader, name string) (*recording, error) {
	r, err := record.NewReader(br, name, record.Options{})
	if err != nil {
		return nil, err
	}
	return &recording{r}, nil
}

func (r *recording) Next() (sampler.Snapshot, error) {
	e, err := r.r.Next()
	return e.Snapshot, err
}

func (r *recording) Warnings() []string { return r.r.Warnings() }
func (r *recording) Close() error       { return r.r.Close() }
