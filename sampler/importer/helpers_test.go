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

// Open is OpenFile's log path with the options the tests set (a fixed
// start for headerless logs), returning the bare stream.
func Open(path string) (Stream, Format, error) { return OpenWith(path, Options{}) }

// OpenWith is Open with options.
func OpenWith(path string, o Options) (Stream, Format, error) {
	f, err := OpenSource(path, nil)
	if err != nil {
		return nil, Unknown, err
	}
	s, format, err := NewStream(f, DisplayName(path), o.withDefaults(path))
	if err != nil {
		f.Close()
		return nil, format, err
	}
	if format != Gpuscope { // a recording's reader checks it, with line numbers
		s = checkedStream(s)
	}
	return closeWith{s, f}, format, nil
}

// closeWith closes the file under a stream.
type closeWith struct {
	Stream
	f io.Closer
}

func (c closeWith) Close() error {
	err := c.Stream.Close()
	if ferr := c.f.Close(); err == nil {
		err = ferr
	}
	return err
}
