package importer

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// rowLog is what the logs of one row per GPU and tick share (nvidia-smi
// CSV, dmon and pmon, dcgmi dmon): the lines, the ticks the rows gather
// into, the warnings, and the good rows counted, which tell a log of
// nothing but bad rows (an error) from an empty one.
type rowLog struct {
	name string
	in   lines
	warnings
	k        ticks
	good     int
	firstBad string
	done     bool
}

// next reads until a row completes a tick: row gets each line that is not
// blank and says whether a snapshot is ready. At the end of the input the
// last tick is flushed.
func (r *rowLog) next(row func(line string) (sampler.Snapshot, bool, error)) (sampler.Snapshot, error) {
	for !r.done {
		line, err := r.in.next()
		if err == io.EOF {
			r.done = true
			break
		}
		if err != nil {
			return sampler.Snapshot{}, fmt.Errorf("%s: %w", r.name, err)
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if snap, ready, err := row(line); err != nil {
			return sampler.Snapshot{}, err
		} else if ready {
			return snap, nil
		}
	}
	if snap, ok := r.k.flush(); ok {
		return snap, nil
	}
	noteCut(&r.warnings, &r.in)
	if r.good == 0 && r.firstBad != "" {
		return sampler.Snapshot{}, fmt.Errorf("%s: no readable rows; first problem: %s", r.name, r.firstBad)
	}
	return sampler.Snapshot{}, io.EOF
}

// skip warns of a row that could not be read; the first is the error of a
// log with no good row.
func (r *rowLog) skip(err error) {
	if r.firstBad == "" {
		r.firstBad = err.Error()
	}
	r.add("%v; row skipped", err)
}
