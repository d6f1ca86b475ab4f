package report

import (
	"encoding/json"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// File is a gpuscope recording or another tool's log (nvidia-smi, dcgmi),
// detected from its content, read as a report Source. Recordings keep the
// findings they were recorded with; logs have none and are re-diagnosed.
type File struct {
	Format string
	rec    *record.Reader
	imp    importer.Stream
}

// OpenFile detects the format of path and opens it for streaming.
func OpenFile(path string) (*File, error) {
	stream, format, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	if format != importer.Gpuscope {
		return &File{Format: string(format), imp: stream}, nil
	}
	// The importer reads recordings too, but drops their findings.
	stream.Close()
	r, err := record.Open(path)
	if err != nil {
		return nil, err
	}
	return &File{Format: string(format), rec: r}, nil
}

// Next implements Source.
func (f *File) Next() (sampler.Snapshot, json.RawMessage, error) {
	if f.rec != nil {
		e, err := f.rec.Next()
		return e.Snapshot, e.Findings, err
	}
	s, err := f.imp.Next()
	return s, nil, err
}

// Warnings are what the reader skipped or guessed (torn last line, unknown
// columns, synthesized timestamps).
func (f *File) Warnings() []string {
	if f.rec != nil {
		return f.rec.Warnings()
	}
	return f.imp.Warnings()
}

// Close releases the file.
func (f *File) Close() error {
	if f.rec != nil {
		return f.rec.Close()
	}
	return f.imp.Close()
}

// BuildFile opens path, builds its report and adds the reader's warnings.
func BuildFile(path string, opts Options) (*Report, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opts.File, opts.Format = path, f.Format
	r, err := Build(f, opts)
	if err != nil {
		return nil, err // Build's errors name the file
	}
	r.Warnings = append(r.Warnings, f.Warnings()...)
	return r, nil
}
