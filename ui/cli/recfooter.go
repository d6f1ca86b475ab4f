package cli

import (
	"bytes"
	"errors"
	"os"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// footerBuild builds a gzip recording's footer (sampler/record/footer.go),
// which report and compare then read instead of the lines, while record
// writes them, on a goroutine of its own: each line's snapshot and
// findings, once written, go to summary.Values, the builder a report of
// the file uses fed with the values the line was encoded from instead of
// the line decoded again. Decoding them was 8 % of recording a day, and
// reading the file back at close 22 % more before that (docs/benchmarks.md,
// "Recording a day: the footer from the values"). Why it is exactly the
// report of the lines: summary.Values' comment, and the tee below for
// what only the text shows; TestFooterStreamedAsReadBack and
// TestFooterFromValues compare the two.
type footerBuild struct {
	path  string
	lines chan footerLine
	done  chan []byte // the state encoded; nil for none
	// odd: a line written so far reads back otherwise than its values
	// (tee). Set and read on the writer's goroutine only.
	odd bool
}

// footerLine is one written line for the builder: read-only from then on,
// as the collector's frames are (record.Async).
type footerLine struct {
	s     sampler.Snapshot
	fs    []diagnose.Finding
	texts [][]byte // each finding's JSON as written, immutable (findingsText)
	odd   bool
}

// footerBacklog: lines waiting for the builder, a few MB at most.
const footerBacklog = 64

// startFooter starts the footer's builder for w's recording at path, or
// is nil where none is written: a plain file has no place text tools
// skip, and a pipe is not a file to append to.
func startFooter(w *record.Writer, path, program string) *footerBuild {
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() || !strings.HasSuffix(path, ".gz") {
		return nil
	}
	fb := &footerBuild{path: path, lines: make(chan footerLine, footerBacklog), done: make(chan []byte, 1)}
	go func() { fb.done <- buildFooter(fb.lines, path, program) }()
	w.Tee(fb)
	return fb
}

// errOdd ends the tee: once a line is odd no footer is written.
var errOdd = errors.New("a line that reads back otherwise")

// Write is the writer's tee: each line's text, which alone shows what the
// values cannot: a string the encoder wrote otherwise (not UTF-8: U+FFFD
// in its place, raw or escaped; a U+FFFD of the value's own counts too,
// costing only the footer) or a line the reader refuses
// (record.Readable). The header is checked alike.
func (fb *footerBuild) Write(line []byte) (int, error) {
	if bytes.Contains(line, []byte("\uFFFD")) || bytes.Contains(line, []byte(`\ufffd`)) || !record.Readable(line) {
		fb.odd = true
		return 0, errOdd
	}
	return len(line), nil
}

// wrap is w, whose lines, once written, also go to the builder.
func (fb *footerBuild) wrap(w record.FrameWriter) record.FrameWriter {
	if fb == nil {
		return w
	}
	return footerTee{w, fb}
}

type footerTee struct {
	w  record.FrameWriter
	fb *footerBuild
}

func (t footerTee) Write(s sampler.Snapshot, findings any) error {
	if err := t.w.Write(s, findings); err != nil {
		return err
	}
	l := footerLine{s: s, odd: t.fb.odd}
	if rf, ok := findings.(recordFindings); ok {
		items, _ := rf.c.pieces() // the list just written, finding by finding
		l.fs, l.texts = rf.fs, append([][]byte(nil), items...)
	} else {
		l.odd = true
	}
	t.fb.lines <- l
	return nil
}

// buildFooter is the footer's state of the lines from in: nil where one
// reads back otherwise or the reader would warn (the recording is whole
// either way, so nothing is said).
func buildFooter(in <-chan footerLine, path, program string) []byte {
	v := summary.NewValues(summary.Options{File: importer.DisplayName(path), Format: string(importer.Gpuscope)})
	var order record.OrderCheck // the reader's warnings on times and indices
	ok := true
	for l := range in {
		if ok = ok && !l.odd && len(order.Check(&l.s, "")) == 0; ok {
			v.Add(l.s, l.fs, l.texts)
		}
	}
	if !ok {
		return nil
	}
	r, err := v.Report()
	if err != nil {
		return nil
	}
	st := summary.StateOf(r)
	if st == nil {
		return nil
	}
	st.Program = program
	b, err := summary.EncodeState(st)
	if err != nil {
		return nil
	}
	return b
}

// finish ends the builder and, where the recording closed whole (ok),
// appends the footer.
func (fb *footerBuild) finish(ok bool) {
	if fb == nil {
		return
	}
	close(fb.lines)
	if b := <-fb.done; ok && b != nil {
		record.AppendFooter(fb.path, b) //nolint:errcheck // without a footer the file reads whole
	}
}

// footerReport is the report of path from its footer, or nil where the
// lines must be read: --full, standard input, --from or --to, no footer,
// one that fails a check or that another version wrote.
func footerReport(path string, opts summary.Options, program string, full bool) *summary.Report {
	if full || path == importer.Stdin || !opts.From.IsZero() || !opts.To.IsZero() {
		return nil
	}
	b, err := record.ReadFooter(path)
	if err != nil {
		return nil
	}
	st, err := summary.DecodeState(b)
	if err != nil || st.Program != program {
		return nil
	}
	opts.File, opts.Format = importer.DisplayName(path), st.Format
	return st.Report(opts)
}

// program is the build a footer names: only this one reads it.
func (d Deps) program() string { return d.Version + " " + d.Commit }
