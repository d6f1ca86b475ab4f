package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
)

// Options change how strict a Reader is.
type Options struct {
	// bufBytes overrides readBufBytes (tests): FuzzReader's inputs are a few
	// KB, and zeroing two 256 KiB buffers was most of an exec's 0.9 ms.
	bufBytes int
	// FindingsOnDemand leaves a line's findings, where it listed some as
	// unchanged, to Entry.FindingsList instead of building them as text
	// in Entry.Findings on every line (report, which reads the text of a
	// few lines only).
	FindingsOnDemand bool
	// serialInflate inflates on the reading goroutine only (tests: the
	// reference the members read on several cores must equal).
	serialInflate bool
	// segmentMax lowers the members reader's limits (members.go) to reach
	// its fallback in small tests.
	segmentMax int
}

// Limits: a snapshot with thousands of processes is a few MB (ten
// thousand processes with 1 KB command lines are ~10 MB), so a longer
// "line" is a file that is not a recording; at 16 MiB the line being
// assembled, and the copy handed to a decoder, keep a gzip bomb of one
// endless line under ~60 MB (docs/security.md, "Hostile files"; 64 MiB took
// 280 MB). The warning list is for a human and stops growing after a
// screenful.
const (
	maxLineBytes = 16 << 20
	maxWarnings  = 20
	readBufBytes = 256 << 10
	// maxGPUHint bounds the per-entry preallocation a header can ask for
	// (above the largest single-node GPU counts, e.g. 72-GPU racks).
	maxGPUHint = 72
)

// Reader streams entries from a recording; memory stays bounded by the
// longest line, whatever the file's length. Entries are decoded ahead on
// other cores: Close releases them. A Reader is not safe for concurrent use.
type Reader struct {
	name     string
	opts     Options
	closer   io.Closer // the file, when Open opened it
	lines    lineReader
	inflate  *membersReader // nil for plain text or the serial reader
	pipe     *pipeline      // started by the first Next
	hdr      Header
	read     int    // entries returned
	skipped  int    // damaged lines skipped
	firstBad string // the first one's warning, for the error when nothing is readable
	warns    []string
	members  []string // gzip members skipped (lineReader.damaged), listed first
	dropped  int      // warnings beyond maxWarnings
	done     bool
	slow     slowTier // slow-tier parts carried forward (see slowtier.go)
	stat     statics  // static GPU and process fields carried forward (statics.go)
	find     findingsMemo
	order    OrderCheck
	lean     atomic.Bool // Lean called
	held     procMem     // the last entry's records (lean.go)
}

// Open reads the header of the recording at path. Gzip is detected by its
// magic bytes, not the name.
func Open(path string) (*Reader, error) { return OpenOptions(path, Options{}) }

// OpenOptions is Open with options.
func OpenOptions(path string, o Options) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	r, err := NewReader(f, path, o)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// NewReader reads a recording from src; name is used in messages.
func NewReader(src io.Reader, name string, o Options) (*Reader, error) {
	size := readBufBytes
	if o.bufBytes > 0 {
		size = o.bufBytes
	}
	r := &Reader{name: name, opts: o}
	in := bufio.NewReaderSize(src, size)
	if !o.serialInflate {
		r.inflate = newMembersReader(in, r.lines.damaged, o.segmentMax)
	}
	if r.inflate != nil {
		r.lines.br = bufio.NewReaderSize(r.inflate, size)
	} else {
		br, err := decompressedResync(in, name, r.lines.damaged)
		if err != nil {
			return nil, err
		}
		r.lines.br = br
	}
	if err := r.readHeader(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

const wantRecording = `a gpuscope recording (first line is not {"gpuscope_recording":1,...}); ` +
	"for nvidia-smi or dcgmi logs use report/replay which detect them"

func (r *Reader) readHeader() error {
	line, _, err := r.lines.next()
	for err == nil && len(bytes.TrimSpace(line)) == 0 { // tolerate leading blank lines
		line, _, err = r.lines.next()
	}
	if len(bytes.TrimSpace(line)) == 0 {
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s: reading the header: %w", r.name, err)
		}
		return fmt.Errorf("%s: empty file; want a gpuscope recording (JSON Lines starting with {\"gpuscope_recording\":1,...})", r.name)
	}
	var probe struct {
		Version *int `json:"gpuscope_recording"`
	}
	if perr := json.Unmarshal(line, &probe); perr != nil || probe.Version == nil || *probe.Version < 1 {
		if perr != nil && bytes.HasPrefix(bytes.TrimSpace(line), []byte(`{"gpuscope_recording"`)) {
			// It is one of ours, cut inside its first line.
			return fmt.Errorf("%s: line 1: the recording header is cut off or damaged; nothing after it can be read", r.name)
		}
		return fmt.Errorf("%s: not %s", r.name, wantRecording)
	}
	if *probe.Version > Version {
		return fmt.Errorf("%s: recording format version %d is newer than this gpuscope reads (%d); upgrade gpuscope", r.name, *probe.Version, Version)
	}
	if err := checkShape(line); err != nil {
		return fmt.Errorf("%s: line %d: damaged header: %v", r.name, r.lines.no, err)
	}
	if err := json.Unmarshal(line, &r.hdr); err != nil {
		return fmt.Errorf("%s: line %d: damaged header: %v; want {\"gpuscope_recording\":1,\"host\":...}", r.name, r.lines.no, err)
	}
	return nil
}

// Header is the recording's first line.
func (r *Reader) Header() Header { return r.hdr }

// Next returns the next entry, or io.EOF at the end. A torn last line (the
// recorder was killed mid-write) ends the stream with a warning, not an
// error; a damaged line elsewhere is skipped with a warning naming it
// (Warnings counts them), and only a file with no readable line is an error.
func (r *Reader) Next() (Entry, error) {
	if r.pipe == nil && !r.done {
		r.pipe = startPipeline(&r.lines, min(len(r.hdr.GPUs), maxGPUHint), &r.lean)
	}
	r.giveBack()
	for !r.done {
		j, ok := <-r.pipe.order
		if !ok {
			r.done = true
			break
		}
		<-j.ready
		r.giveBack()
		r.held = j.mem
		lineNo := j.lineNo
		for _, w := range j.skips { // kept whatever the damaged lines before them
			if len(r.members) < maxWarnings {
				r.members = append(r.members, w)
			}
		}
		if j.readErr != nil && j.readErr != io.EOF {
			if errors.Is(j.readErr, errLineTooLong) {
				r.finish()
				return Entry{}, fmt.Errorf("%s: line %d: %w; want one snapshot per line", r.name, lineNo, j.readErr)
			}
			r.warn("after line %d: the file's data is cut off or damaged (%v); read %s", lineNo, j.readErr, sampler.Counted(r.read, "snapshot", "snapshots"))
		}
		if j.readErr != nil {
			r.done = true
		}
		if j.blank {
			continue
		}
		if !j.terminated {
			if j.perr == nil { // a final line merely lacking its newline
				return r.complete(&j.l, lineNo), nil
			}
			r.warn("line %d: torn last line (recording was cut off); read %s", lineNo, sampler.Counted(r.read, "snapshot", "snapshots"))
			break
		}
		if j.perr != nil {
			if errors.Is(j.perr, errSecondHeader) { // not damage: two files in one
				r.finish()
				return Entry{}, fmt.Errorf("%s: line %d: not a snapshot: %v", r.name, lineNo, j.perr)
			}
			// One damaged line (a disk error, a partial copy) costs that
			// line only; what the next lines left out as unchanged is
			// taken from the last line read.
			r.skipped++
			w := fmt.Sprintf("line %d: skipped, damaged (not a snapshot: %v)", lineNo, j.perr)
			if r.firstBad == "" {
				r.firstBad = w
			}
			r.warn("%s", w)
			continue
		}
		return r.complete(&j.l, lineNo), nil
	}
	r.finish()
	if r.read == 0 && r.skipped > 0 {
		return Entry{}, fmt.Errorf("%s: no line is a readable snapshot (%s; %s); want one JSON object per line",
			r.name, skippedCount(r.skipped), r.firstBad)
	}
	return Entry{}, io.EOF
}

// errSecondHeader: recordings concatenated into one file, which the
// reader refuses rather than skips (the second's lines would be read as
// continuing the first).
var errSecondHeader = errors.New("it is a second recording header (recordings concatenated? report each file on its own)")

// skippedCount says how many damaged lines were skipped.
func skippedCount(n int) string {
	if n == 1 {
		return "1 damaged line skipped"
	}
	return sampler.Counted(n, "damaged line", "damaged lines") + " skipped"
}

// complete fills in what the writer left out (unchanged static and
// slow-tier fields) and links GPU processes to their host data.
func (r *Reader) complete(l *wireEntry, lineNo int) Entry {
	r.read++
	r.stat.restore(l)
	if r.hdr.Version < 2 {
		r.slow.restoreV1(&l.Snapshot)
	} else {
		r.slow.restore(l)
	}
	if r.hdr.Version >= 3 {
		r.find.restore(l, r.opts.FindingsOnDemand)
	}
	sampler.JoinProcs(&l.Snapshot)
	for _, w := range r.order.CheckNumbered(&l.Snapshot, "line", lineNo) {
		r.warn("%s", w)
	}
	return l.Entry
}

// finish ends the stream and releases the decoding goroutines.
func (r *Reader) finish() {
	r.done = true
	if r.pipe != nil {
		r.pipe.stop()
	}
	if r.inflate != nil {
		r.inflate.stop()
	}
}

// decodeEntry decodes one line into l, fresh but for its empty GPU
// slice. The line as the recorder writes it is read by fastEntry; any
// other (another writer's order, escapes, unknown fields, damage) by the
// general decoder: the encoding/json (v1) semantics on the v2
// implementation, about twice as fast to decode, whether or not the binary
// was built with GOEXPERIMENT=jsonv2 (docs/benchmarks.md).
func decodeEntry(text []byte, l *wireEntry) error { return decodeLine(&scanner{}, text, l) }

// decodeLine is decodeEntry with a decoding goroutine's own scanner.
func decodeLine(s *scanner, text []byte, l *wireEntry) error {
	t := bytes.TrimLeft(text, " \t\r")
	if len(t) == 0 || t[0] != '{' {
		return errors.New("the line is not a JSON object")
	}
	if bytes.HasPrefix(t, []byte(`{"gpuscope_recording"`)) {
		return errSecondHeader
	}
	if err := checkShape(text); err != nil {
		return err
	}
	gpus := l.GPUs
	if fastEntry(s, text, l) {
		return nil
	}
	// What fastEntry read is dropped, its GPUs too: the general decoder
	// would decode into the elements left in the slice's capacity.
	*l = wireEntry{}
	if gpus != nil {
		l.GPUs = make([]sampler.GPU, 0, cap(gpus))
	}
	return jsonv1.Unmarshal(text, l)
}

// Warnings lists what was tolerated so far: a torn last line, skipped lines.
func (r *Reader) Warnings() []string {
	out := append(append([]string(nil), r.members...), r.warns...)
	if r.dropped > 0 {
		out = append(out, "... and "+sampler.Counted(r.dropped, "more warning", "more warnings"))
	}
	if r.skipped > 0 {
		out = append(out, skippedCount(r.skipped))
	}
	return out
}

// Close stops the decoding goroutines and closes the file if Open opened it.
func (r *Reader) Close() error {
	if r.pipe != nil {
		r.pipe.stop()
	}
	if r.inflate != nil {
		r.inflate.stop()
	}
	if r.closer == nil {
		return nil
	}
	return r.closer.Close()
}

// warn is not inlined: its call sites, on the rare damaged lines, each held
// a copy of the append and the variadic call.
//
//go:noinline
func (r *Reader) warn(format string, args ...any) {
	if len(r.warns) >= maxWarnings {
		r.dropped++
		return
	}
	r.warns = append(r.warns, fmt.Sprintf(format, args...))
}
