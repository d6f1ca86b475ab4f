package importer

import (
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// readString runs a log held in a string through detection and its parser.
func readString(in string) ([]sampler.Snapshot, []string, error) {
	s, _, err := NewStream(strings.NewReader(in), "test", Options{Start: fixedStart})
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	var out []sampler.Snapshot
	for {
		snap, err := s.Next()
		if err == io.EOF {
			return out, s.Warnings(), nil
		}
		if err != nil {
			return out, s.Warnings(), err
		}
		out = append(out, snap)
	}
}
