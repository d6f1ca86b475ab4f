package replay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
)

// Load reads every snapshot of a recording or log, oldest first,
// with the importer's warnings.
func Load(path string) ([]sampler.Snapshot, []string, error) {
	stream, _, err := importer.Open(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, nil, pe // "open FILE: no such file or directory"
	}
	if err != nil {
		return nil, nil, err
	}
	defer stream.Close()
	var out []sampler.Snapshot
	for {
		s, err := stream.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, s)
	}
	warnings := stream.Warnings()
	if len(out) == 0 {
		return nil, warnings, fmt.Errorf("%s: no snapshots", path)
	}
	// The timeline's jumps search by time; a log that was concatenated out
	// of order is played in time order rather than refused.
	if !sort.SliceIsSorted(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) }) {
		sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
		warnings = append(warnings, path+": snapshots out of time order; played sorted by time")
	}
	return out, warnings, nil
}
