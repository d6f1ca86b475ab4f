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

// LoadSpool streams a recording or log (a path, or importer.Stdin) into a
// Spool in dir ("" the system's temporary directory), with the importer's
// warnings: memory holds the times, not the snapshots. The caller closes
// the spool.
func LoadSpool(path, dir string) (*Spool, []string, error) {
	stream, _, err := importer.Open(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, nil, pe
	}
	if err != nil {
		return nil, nil, err
	}
	defer stream.Close()
	sp, err := NewSpool(dir)
	if err != nil {
		return nil, nil, err
	}
	for {
		s, err := stream.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			err = sp.Add(s)
		}
		if err != nil {
			sp.Close()
			return nil, nil, err
		}
	}
	warnings := stream.Warnings()
	sorted, err := sp.Finish()
	if err == nil && sp.Len() == 0 {
		err = fmt.Errorf("%s: no snapshots", path)
	}
	if err != nil {
		sp.Close()
		return nil, warnings, err
	}
	if sorted {
		warnings = append(warnings, path+": snapshots out of time order; played sorted by time")
	}
	return sp, warnings, nil
}
