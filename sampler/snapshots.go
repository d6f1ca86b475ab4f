package sampler

import (
	"encoding/json"
	"io"
	"time"
)

// Snapshots is a timeline held in memory, oldest first (tests, short logs,
// a node's history from Prometheus), read either way a face reads one: by
// index (Len, Time, At: the replay's Source) or once from the front (Next:
// the report's summary.Source).
type Snapshots []Snapshot

func (s Snapshots) Len() int             { return len(s) }
func (s Snapshots) Time(i int) time.Time { return s[i].Time }
func (s Snapshots) At(i int) Snapshot    { return s[i] }

// Next takes the first snapshot off s, io.EOF when none is left. A slice
// carries no stored findings (a recording's line does), so the report
// diagnoses these snapshots itself.
func (s *Snapshots) Next() (Snapshot, json.RawMessage, error) {
	if len(*s) == 0 {
		return Snapshot{}, nil, io.EOF
	}
	first := (*s)[0]
	*s = (*s)[1:]
	return first, nil, nil
}
