package cli

import (
	"bufio"
	"os"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// footerBuild builds a gzip recording's footer (sampler/record/footer.go),
// which report and compare then read instead of the lines, while record
// writes them: the recording's text, uncompressed, as the writer hands it
// on (record.Writer.Tee), goes through the reader and the builder a report
// of the file uses, on a goroutine of their own. Reading the file back at
// close, inflating it again, cost a day 22 % more of the footer's CPU and a
// serial tail after the last line (docs/benchmarks.md, "Recording a day:
// the footer built as the lines are written").
type footerBuild struct {
	path string
	pw   *os.File      // the pipe's end the text is written to
	bw   *bufio.Writer // in front of it
	done chan []byte   // the state encoded; nil for none
}

// footerChunk is how much text goes through the pipe at once: a write
// per line would wake the builder 86,400 times a day.
const footerChunk = 256 << 10

// startFooter starts the footer's builder for w's recording at path, or
// is nil where none is written: a plain file has no place text tools
// skip, and a pipe is not a file to append to. The text goes through an
// os.Pipe, already linked, where an io.Pipe or a pipe of chunks cost the
// binary a page or two (docs/benchmarks.md, "Recording a day: the footer
// built as the lines are written").
func startFooter(w *record.Writer, path, program string) *footerBuild {
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() || !strings.HasSuffix(path, ".gz") {
		return nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil
	}
	fb := &footerBuild{path: path, pw: pw, bw: bufio.NewWriterSize(pw, footerChunk), done: make(chan []byte, 1)}
	go func() { fb.done <- buildFooter(pr, path, program) }()
	w.Tee(fb.bw)
	return fb
}

// buildFooter is the footer's state of the text read from in, as report
// reads the file: nil where it cannot be kept exactly or the reader warned
// (the recording is whole either way, so nothing is said).
func buildFooter(in *os.File, path, program string) []byte {
	f, err := importer.OpenSnapshots(in, path) // closes in on an error
	if err != nil {
		return nil
	}
	r, err := summary.BuildFrom(f, summary.Options{})
	f.Close() // and in: the writer's tee stops
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

// finish ends the builder and, where the recording closed whole (ok) and
// the builder was handed all of it, appends the footer.
func (fb *footerBuild) finish(ok bool) {
	if fb == nil {
		return
	}
	ok = ok && fb.bw.Flush() == nil
	fb.pw.Close() // the text's end: a recording cut gets no footer whatever its builder says
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
