package record

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// earliestPlausible is the first date a snapshot can hold
// (NVML and the tools whose logs gpuscope reads do not predate 2010). An
// earlier time, typically 1970-01-01, comes from a machine whose clock was
// never set or a zero field.
var earliestPlausible = time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)

// OrderCheck notices what a recording or log should not hold, each kind
// once: time going backwards (a report's range would come out negative), a
// snapshot dated before 2010, a negative GPU index. The data is kept as it
// is, in file order; the warnings say where to look. The zero value is
// ready to use; importers use it too, so every format is checked alike.
type OrderCheck struct {
	prev                       time.Time
	backwards, early, negative bool
}

// Check looks at the next snapshot; where names it in a warning ("line 12").
// It returns the warnings this snapshot raised for the first time.
func (c *OrderCheck) Check(s *sampler.Snapshot, where string) []string { return c.check(s, where, -1) }

// CheckNumbered is Check with the snapshot named "noun n" ("line 12"), a
// name built only for a warning: a Sprintf for every line was 1 % of a
// day's report, on its one serial goroutine (docs/benchmarks.md,
// "Recordings: a segment's lines handed on without a copy").
func (c *OrderCheck) CheckNumbered(s *sampler.Snapshot, noun string, n int) []string {
	return c.check(s, noun, n)
}

// check is Check where n < 0, else CheckNumbered.
func (c *OrderCheck) check(s *sampler.Snapshot, where string, n int) []string {
	var out []string
	name := func() string {
		if n < 0 {
			return where
		}
		return where + " " + strconv.Itoa(n)
	}
	if !c.prev.IsZero() && !s.Time.IsZero() && s.Time.Before(c.prev) && !c.backwards {
		c.backwards = true
		out = append(out, fmt.Sprintf("%s: time goes backwards (%s, after %s): is the file out of order or were files joined? kept in file order; time ranges may be wrong",
			name(), stamp(s.Time), stamp(c.prev)))
	}
	// A zero time is a line without one (tests, hand-written files), not a
	// clock that was wrong.
	if !s.Time.IsZero() && s.Time.Before(earliestPlausible) && !c.early {
		c.early = true
		out = append(out, fmt.Sprintf("%s: dated %s, before any GPU log could be: was the clock of the machine that wrote it set?", name(), stamp(s.Time)))
	}
	for i := range s.GPUs { // by index: a GPU is ~1 KB to copy, a line at a time
		if g := s.GPUs[i].Index; g < 0 && !c.negative {
			c.negative = true
			out = append(out, fmt.Sprintf("%s: GPU index %d; indices count from 0 (nvidia-smi -L): the file is damaged", name(), g))
		}
	}
	if s.Time.After(c.prev) {
		c.prev = s.Time
	}
	return out
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }
