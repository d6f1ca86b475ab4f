package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	// Compresses a day's recording ~3x faster than compress/gzip at the
	// default level (docs/benchmarks.md); the stream is standard gzip.
	"github.com/klauspost/compress/gzip"
)

// Writer appends entries to a recording. Every Write leaves the file
// readable up to its last whole line even if the process is killed right
// after (SIGKILL, OOM killer): a plain file gets each line in one write call,
// a gzip file is flushed to a block boundary after each line.
type Writer struct {
	path string
	f    *os.File
	gz   *gzip.Writer // nil for a plain file
	// out is the file behind gz: deflate's bit writer hands on ~240 bytes
	// at a time, a write(2) each, 2.6 % of a fast recording's CPU
	// (docs/benchmarks.md, "Recording a day: the footer built as the lines
	// are written").
	out  *bufio.Writer
	enc  lineEncoder  // reused: each line is encoded here, then written at once
	slow slowTier     // slow-tier parts already written
	stat statics      // static GPU and process fields already written
	find findingsMemo // the findings of the line before
	// deferFlush: no sync block per line (DeferFlush).
	deferFlush bool
	// inMember counts the lines of the current gzip member (linesPerMember).
	inMember int
	// everyFinding writes every line's findings, as version 2 did
	// (BenchmarkReadFindings' reference).
	everyFinding bool
	// head is the header's line, for Tee; tee gets every line after it.
	head []byte
	tee  io.Writer
}

// linesPerMember is how many lines a gzip recording writes per gzip member
// (RFC 1952 §2.2: members concatenate into one stream) before it starts a
// new one whose first line leaves nothing out as unchanged. Deflate
// cannot resume inside a member after a damaged byte, but a reader can at
// the next member (gzip.go), so damage costs at most this many lines: ten
// minutes at the default 1 s interval. It costs ~1 % of the file (a day of
// 8 GPUs, docs/security.md "Hostile files").
const linesPerMember = 600

// outBytes is what the file's buffer holds: a few of deflate's blocks.
const outBytes = 64 << 10

// DeferFlush gives up the per-line guarantee of a gzip recording for
// speed: lines reach the file as gzip's blocks fill, and all of them at
// Close. For a recording that can be made again (the demo recorded as fast
// as possible), where a sync block per line was 13 % of the time
// (-cpuprofile, docs/benchmarks.md). A plain file is unaffected.
func (w *Writer) DeferFlush() { w.deferFlush = true }

// Create starts a new recording at path and writes the header. It never
// replaces anything: an existing path, or a symbolic link planted in a shared
// directory (the dashboard's names are predictable), is an error wrapping
// fs.ErrExist. The file is private (mode 0600): recordings hold other users'
// command lines and user names. A path ending in ".gz" is gzip-compressed.
// The header says Version whatever h.Version is: the lines are written in
// this version's format.
func Create(path string, h Header) (*Writer, error) {
	return create(path, h, os.O_EXCL)
}

// Overwrite is Create that truncates an existing regular file (record
// --force). It still refuses to write through a symbolic link.
func Overwrite(path string, h Header) (*Writer, error) {
	return create(path, h, os.O_TRUNC)
}

func create(path string, h Header, how int) (*Writer, error) {
	h.Version = Version
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|syscall.O_NOFOLLOW|how, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("create recording: %s is a symbolic link; gpuscope does not write through links (choose another name)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("create recording: %w", err)
	}
	w := &Writer{path: path, f: f}
	if strings.HasSuffix(path, ".gz") {
		w.out = bufio.NewWriterSize(f, outBytes)
		w.gz = gzip.NewWriter(w.out)
	}
	if err := w.writeHeader(h); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Write appends one entry as one line.
func (w *Writer) Write(e Entry) error { return w.write(e, nil) }

// pieces is an entry's findings list as FindingsItems hands it.
type pieces struct {
	items [][]byte
	seen  [][2]int
}

func (w *Writer) write(e Entry, p *pieces) error {
	if w.gz != nil && w.inMember >= linesPerMember {
		if err := w.gz.Close(); err != nil { // the member's trailer
			return fmt.Errorf("%s: gzip member: %w", w.path, err)
		}
		w.gz.Reset(w.out)
		w.inMember = 0
		w.stat, w.slow, w.find = statics{}, slowTier{}, findingsMemo{} // the member's first line is whole
	}
	w.inMember++
	l := w.stat.elide(e)
	w.slow.elide(&l)
	switch {
	case w.everyFinding:
	case p != nil:
		w.find.elideItems(&l, p.items, p.seen, e.Time)
	default:
		w.find.elide(&l, e.Findings, e.Time)
	}
	b, err := w.enc.entry(&l)
	if err != nil {
		return fmt.Errorf("%s: encode: %w", w.path, err)
	}
	return w.put(b)
}

// writeHeader writes h's line through the encoder's jsonv1 (HTML
// escaping off: command lines contain '<' and '&', and readers need none).
func (w *Writer) writeHeader(h Header) error {
	w.enc.b, w.enc.err = w.enc.b[:0], nil
	w.enc.any(h)
	if w.enc.err != nil {
		return fmt.Errorf("%s: encode: %w", w.path, w.enc.err)
	}
	w.head = append(append([]byte(nil), w.enc.b...), '\n')
	return w.put(w.head)
}

// Tee hands t the text of the recording, uncompressed, from its header
// on, each line once it is written: what a reader inflates from the file,
// without the file read back (record's footer, ui/cli/recfooter.go).
// After t fails once it gets nothing more; the recording goes on.
func (w *Writer) Tee(t io.Writer) {
	w.tee = t
	w.toTee(w.head)
}

// toTee is not inlined: put stays small.
//
//go:noinline
func (w *Writer) toTee(line []byte) {
	if _, err := w.tee.Write(line); err != nil {
		w.tee = nil
	}
}

// put writes one encoded line, newline included.
func (w *Writer) put(line []byte) error {
	if w.tee != nil { // a failed write below ends the recording, the tee's too
		w.toTee(line)
	}
	if w.gz == nil {
		if _, err := w.f.Write(line); err != nil {
			return fmt.Errorf("%s: write: %w", w.path, err)
		}
		return nil
	}
	if _, err := w.gz.Write(line); err != nil {
		return fmt.Errorf("%s: write: %w", w.path, err)
	}
	// Flush emits a sync block: everything so far decodes without the
	// gzip trailer, which a killed process never writes.
	if w.deferFlush {
		return nil
	}
	if err := w.gz.Flush(); err != nil {
		return fmt.Errorf("%s: flush: %w", w.path, err)
	}
	if err := w.out.Flush(); err != nil {
		return fmt.Errorf("%s: flush: %w", w.path, err)
	}
	return nil
}

// Path is the file being written.
func (w *Writer) Path() string { return w.path }

// Close finishes the gzip stream (if any) and closes the file. Every
// failure is reported (wrapped, so errors.Is sees ENOSPC), not only the
// first.
func (w *Writer) Close() error {
	var errs []error
	if w.gz != nil {
		if err := w.gz.Close(); err != nil {
			errs = append(errs, fmt.Errorf("gzip trailer: %w", err))
		} else if err := w.out.Flush(); err != nil {
			errs = append(errs, fmt.Errorf("gzip trailer: %w", err))
		}
	}
	if err := w.f.Close(); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s: close: %w", w.path, err)
	}
	return nil
}
