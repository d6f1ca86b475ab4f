package importer

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// File is an input opened for reading: a gpuscope recording (which keeps
// the findings it was recorded with) or another tool's output (nvidia-smi,
// dcgmi, pasted text), detected from its content. It is the one opener
// report, compare and the corpus read through; diagnose opens nothing.
type File struct {
	Format  string
	Name    string // what messages call it ("-" is "standard input")
	rec     *record.Reader
	list    *Findings       // the last entry's record.Entry.FindingsList
	kept    []bool          // its FindingsKept
	written json.RawMessage // and FindingsWritten
	imp     Stream
	src     io.Closer
}

// OpenFile detects the format of path ("-": standard input) and opens it for
// streaming, for report and compare: a recording's stored findings are kept.
// Its host processes are decoded too, though those findings judged them:
// the energy and GPU-hours by job group ranks by their parent and name the
// user from them. The input is read once, from a peeked prefix, so a pipe,
// /dev/stdin or a shell's <(...) works like a file.
func OpenFile(path string) (*File, error) { return open(nil, path) }

// OpenSnapshots opens path as OpenFile does, for diagnosing it again (replay,
// check --from): every snapshot decoded whole. src, when not nil, is path
// already opened (the spool's cancellable standard input behind its byte
// counter); the File closes it.
func OpenSnapshots(src io.ReadCloser, path string) (*File, error) { return open(src, path) }

func open(src io.ReadCloser, path string) (*File, error) {
	if src == nil {
		var err error
		if src, err = OpenSource(path, nil); err != nil {
			return nil, err
		}
	}
	name := DisplayName(path)
	br, format := Sniff(src)
	if format != Gpuscope {
		stream, format, err := NewStream(br, name, Options{}.ForPath(path))
		if err != nil {
			src.Close()
			return nil, err
		}
		// A recording's reader checks order itself, with line numbers.
		return &File{Format: string(format), Name: name, imp: checkedStream(stream), src: src}, nil
	}
	r, err := record.NewReader(br, name, record.Options{FindingsOnDemand: true})
	if err != nil {
		src.Close()
		return nil, err
	}
	return &File{Format: string(format), Name: name, rec: r, src: src}, nil
}

// OpenFiles opens several outputs of one node ("report A B C": a table, a
// topo -m, a dmesg) as one picture; one path is OpenFile.
func OpenFiles(paths []string) (*File, error) {
	if len(paths) == 1 {
		return OpenFile(paths[0])
	}
	stream, err := OpenAll(paths, Options{})
	if err != nil {
		return nil, err
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = DisplayName(p)
	}
	return &File{Format: string(Pasted), Name: strings.Join(names, " + "), imp: stream, src: io.NopCloser(nil)}, nil
}

// Next is the next snapshot and, for a recording, the findings stored
// beside it (nil for other tools' outputs).
func (f *File) Next() (sampler.Snapshot, json.RawMessage, error) {
	s, raw, list, err := f.NextList()
	if list != nil {
		raw = list.Text()
	}
	return s, raw, err
}

// Findings is a recording line's findings list, its text built on demand
// (record.Findings).
type Findings = record.Findings

// NextList is Next, but findings a recording's line listed as unchanged
// come as list, raw nil: list.Text is what Next returns, built only when
// asked (a report reads the text of a few lines only).
func (f *File) NextList() (sampler.Snapshot, json.RawMessage, *Findings, error) {
	if f.rec != nil {
		e, err := f.rec.Next()
		f.list, f.kept, f.written = e.FindingsList, e.FindingsKept, e.FindingsWritten
		return e.Snapshot, e.Findings, e.FindingsList, err
	}
	s, err := f.imp.Next()
	return s, nil, nil, err
}

// Lean passes record.Reader.Lean on for a recording: the caller reads of
// the host only what a report with the recording's findings needs. Other
// inputs are read as before.
func (f *File) Lean() {
	if f.rec != nil {
		f.rec.Lean()
	}
}

// FindingsDelta says which of the findings the last Next returned are
// those at the same position the snapshot before (last_seen aside), and
// the others as the recording wrote them (record.Entry.FindingsKept,
// FindingsWritten); nil says nothing.
func (f *File) FindingsDelta() ([]bool, json.RawMessage) { return f.kept, f.written }

// Evidence is where each reading came from, for pasted text (nil, false
// for recordings and logs).
func (f *File) Evidence() (Evidence, bool) {
	imp := f.imp
	if c, ok := imp.(*checked); ok {
		imp = c.Stream
	}
	ev, ok := imp.(Evidence)
	return ev, ok
}

// Warnings are what the reader skipped or guessed (torn last line, unknown
// columns, synthesized timestamps).
func (f *File) Warnings() []string {
	if f.rec != nil {
		return f.rec.Warnings()
	}
	return f.imp.Warnings()
}

// Close releases the input.
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

// OpenPair opens compare's two inputs; on an error the first opened is
// closed again and the error names the input it came from.
func OpenPair(base, after string) (*File, *File, error) {
	b, err := OpenFile(base)
	if err != nil {
		return nil, nil, err
	}
	a, err := OpenFile(after)
	if err != nil {
		b.Close()
		return nil, nil, err
	}
	return b, a, nil
}
