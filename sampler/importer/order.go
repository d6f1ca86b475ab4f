package importer

import (
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// checkedStream wraps a stream so that time going backwards, a snapshot dated
// before 2010 and a negative GPU index are each warned about once, naming
// the snapshot (record.OrderCheck); snapshots pass unchanged, in order.
// The opener (open.go) applies it to every log; gpuscope recordings are
// checked by their reader, with line numbers.
func checkedStream(s Stream) Stream { return &checked{Stream: s} }

type checked struct {
	Stream
	n     int
	check record.OrderCheck
	warns []string
}

func (c *checked) Next() (sampler.Snapshot, error) {
	s, err := c.Stream.Next()
	if err != nil {
		return s, err
	}
	c.n++
	c.warns = append(c.warns, c.check.CheckNumbered(&s, "snapshot", c.n)...)
	return s, nil
}

func (c *checked) Warnings() []string {
	return append(c.Stream.Warnings(), c.warns...)
}
