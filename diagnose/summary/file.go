package summary

import (
	"encoding/json"
	"io"
	"strings"

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
	src    io.Closer
}

// OpenFile detects the format of path ("-": standard input) and opens it
// for streaming. The input is read once, from a peeked prefix, so a pipe,
// /dev/stdin or a shell's <(...) works like a file.
func OpenFile(path string) (*File, error) {
	src, err := importer.OpenSource(path, nil)
	if err != nil {
		return nil, err
	}
	name := importer.DisplayName(path)
	br, format := importer.Sniff(src)
	if format != importer.Gpuscope {
		// The importer reads recordings too, but drops their findings.
		stream, format, err := importer.NewStream(br, name, importer.Options{}.ForPath(path))
		if err != nil {
			src.Close()
			return nil, err
		}
		return &File{Format: string(format), imp: stream, src: src}, nil
	}
	r, err := record.NewReader(br, name, record.Options{LazyHostProcs: true}) // it takes the stored findings
	if err != nil {
		src.Close()
		return nil, err
	}
	return &File{Format: string(format), rec: r, src: src}, nil
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
	var err error
	if f.rec != nil {
		err = f.rec.Close()
	} else {
		err = f.imp.Close()
	}
	if cerr := f.src.Close(); err == nil {
		err = cerr
	}
	return err
}

// BuildFile opens path, builds its report and adds the reader's warnings.
func BuildFile(path string, opts Options) (*Report, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opts.File, opts.Format = importer.DisplayName(path), f.Format
	if ev, ok := f.imp.(importer.Evidence); ok {
		opts.Sections, opts.Where = ev.Sections(), ev.Where
	}
	r, err := Build(f, opts)
	if err != nil {
		return nil, err // Build's errors name the file
	}
	r.Warnings = append(r.Warnings, f.Warnings()...)
	return r, nil
}

// BuildFiles reads several files of one node ("report A B C": a table, a
// topo -m, a dmesg) as one picture and builds its report.
func BuildFiles(paths []string, opts Options) (*Report, error) {
	if len(paths) == 1 {
		return BuildFile(paths[0], opts)
	}
	stream, err := importer.OpenAll(paths, importer.Options{})
	if err != nil {
		return nil, err
	}
	defer stream.Close()
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = importer.DisplayName(p)
	}
	opts.File, opts.Format = strings.Join(names, " + "), string(importer.Pasted)
	if ev, ok := stream.(importer.Evidence); ok {
		opts.Sections, opts.Where = ev.Sections(), ev.Where
	}
	r, err := Build(&File{Format: opts.Format, imp: stream, src: io.NopCloser(nil)}, opts)
	if err != nil {
		return nil, err
	}
	r.Warnings = append(r.Warnings, stream.Warnings()...)
	return r, nil
}
