package spool

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
)

// Load reads every snapshot of a recording or log into memory, oldest
// first, with the importer's warnings (check, and short logs).
func Load(path string) ([]sampler.Snapshot, []string, error) {
	f, err := importer.OpenSnapshots(nil, path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, nil, pe // "open FILE: no such file or directory"
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []sampler.Snapshot
	for {
		s, _, err := f.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, s)
	}
	warnings := f.Warnings()
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

// Progress is how far a spool's loader has got.
type Progress struct {
	// Fraction is the share of the input's bytes read (compressed bytes
	// for gzip), 0..1; -1 when the size is unknown (standard input, a pipe).
	Fraction float64
	// Done: the loader has stopped (the whole input read, or Err).
	Done bool
	// Err is why loading stopped before the end of the input; the
	// snapshots read before it stay readable.
	Err error
	// Sorted: Done, and the timeline had to be put in time order (its
	// indices changed).
	Sorted bool
	// Warnings are the reader's (a torn last line, skipped lines), with a
	// line when the timeline was sorted; complete once Done.
	Warnings []string
}

// Progress says how far loading has got.
func (s *Spool) Progress() Progress {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.prog
	p.Warnings = append([]string(nil), p.Warnings...)
	return p
}

func (s *Spool) setProgress(f func(*Progress)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.prog)
}
