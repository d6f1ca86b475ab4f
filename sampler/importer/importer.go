// Package importer turns logs users already have — gpuscope recordings,
// nvidia-smi CSV/dmon/pmon/XML output, dcgmi dmon output — into a stream of
// sampler.Snapshots, so that replay, report and diagnosis work on them as on
// live data. Each importer follows the tool's documented output format and
// the variations seen across drivers; a field the log lacks is n/a.
package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// Format names a log format; it is also the snapshots' Node.Source.
type Format string

// The recognised formats.
const (
	Unknown    Format = ""
	Gpuscope   Format = "gpuscope"
	SMICSV     Format = "nvidia-smi-csv"
	SMIDmon    Format = "nvidia-smi-dmon"
	SMIPmon    Format = "nvidia-smi-pmon"
	DCGMIDmon  Format = "dcgmi-dmon"
	SMIXML     Format = "nvidia-smi-xml"
	recognised        = "gpuscope recording (JSON Lines), nvidia-smi --query-gpu CSV, nvidia-smi dmon, " +
		"nvidia-smi pmon, dcgmi dmon, nvidia-smi -q -x XML"
)

// Stream yields the snapshots of one log in order.
type Stream interface {
	// Next returns the next snapshot, or io.EOF after the last.
	Next() (sampler.Snapshot, error)
	// Warnings lists what was tolerated: skipped rows, unknown columns,
	// synthesized times, a torn last line.
	Warnings() []string
	Close() error
}

// Options tune the importers; the zero value is sensible.
type Options struct {
	// Location of timestamps that carry no zone (nvidia-smi prints local
	// time). Default UTC, so the same log reads the same everywhere.
	Location *time.Location
	// Start and Interval synthesize times for logs without timestamps
	// (dmon without -o DT, dcgmi dmon, header-less CSV); a warning says so.
	// Defaults: Open uses the file's modification time (a label, not the
	// true start: the log does not say when it began) and 1 s, the tools'
	// default interval. NewStream callers should set Start.
	Start    time.Time
	Interval time.Duration
}

func (o Options) withDefaults(path string) Options {
	if o.Location == nil {
		o.Location = time.UTC
	}
	if o.Interval <= 0 {
		o.Interval = time.Second // nvidia-smi dmon -d and dcgmi dmon -d default
	}
	if o.Start.IsZero() && path == Stdin {
		o.Start = time.Now().UTC().Truncate(time.Second) // a pipe has no date: label it when read
	}
	if o.Start.IsZero() && path != "" && path != Stdin {
		if st, err := os.Stat(path); err == nil {
			o.Start = st.ModTime().UTC().Truncate(time.Second)
		}
	}
	return o
}

// ForPath fills the defaults that depend on the input's path (the start
// time of logs without timestamps: the file's modification time).
func (o Options) ForPath(path string) Options { return o.withDefaults(path) }

// NewStream detects the format of src and returns its snapshots; name is
// used in messages. The caller closes src.
func NewStream(src io.Reader, name string, o Options) (Stream, Format, error) {
	o = o.withDefaults("")
	br, err := record.Decompressed(bufio.NewReaderSize(src, readBufBytes), name)
	if err != nil {
		return nil, Unknown, err
	}
	br = uncopied(br)
	head, _ := br.Peek(detectBytes)
	format := Detect(head)
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, Unknown, fmt.Errorf("%s: empty file; want one of: %s", name, recognised)
	}
	if format == Unknown {
		ls, err := readText(br, name)
		if err != nil {
			return nil, Unknown, err
		}
		s, err := newPaste([]textInput{{lines: ls}}, name, o)
		if err != nil {
			if r := foreignTool(head, name); r != nil { // say what it is, not how to fix a CSV
				return nil, Unknown, r
			}
			return nil, Unknown, fmt.Errorf("%w%s", err, csvHint(head))
		}
		return s, Pasted, nil
	}
	s, err := newParser(format, br, name, o)
	return s, format, err
}

// newParser starts the reader of one format.
func newParser(format Format, br *bufio.Reader, name string, o Options) (Stream, error) {
	switch format {
	case Gpuscope:
		return newRecording(br, name)
	case SMICSV:
		return newSMICSV(br, name, o)
	case SMIDmon:
		return newDmon(br, name, o)
	case SMIPmon:
		return newPmon(br, name, o)
	case DCGMIDmon:
		return newDCGMI(br, name, o)
	case SMIXML:
		return newSMIXML(br, name, o)
	}
	return nil, fmt.Errorf("%s: no reader for format %q", name, format)
}

// csvHint adds advice when the file's first line looks like a row of
// comma-separated values: most likely nvidia-smi --query-gpu output
// written with "noheader". A sentence or a log line with a comma in it
// (corpus: b13-smi-no-devices-found-*, b6-lspci-*) is not one.
func csvHint(head []byte) string {
	first, _, _ := bytes.Cut(bytes.TrimSpace(head), []byte("\n"))
	if !csvRowLike(string(first)) {
		return ""
	}
	return "; if this is nvidia-smi --query-gpu output without a header line, keep the header " +
		"(drop \"noheader\" from --format): only index, utilization.gpu, memory.used, memory.total reads without one" +
		csvFailedReads(head)
}

// Formats lists the recognised formats, for help texts.
func Formats() []Format {
	return []Format{Gpuscope, SMICSV, SMIDmon, SMIPmon, DCGMIDmon, SMIXML}
}

// csvRowLike: two or more short fields, at least half of them a value
// (a number with or without its unit, or [N/A]), as --query-gpu prints.
func csvRowLike(l string) bool {
	fs := strings.Split(l, ",")
	n := 0
	for _, f := range fs {
		f = strings.TrimSpace(f)
		if len(f) > 40 {
			return false
		}
		v := strings.TrimRight(f, " %ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
		if _, err := strconv.ParseFloat(v, 64); err == nil || strings.Contains(f, "N/A") {
			n++
		}
	}
	return len(fs) > 1 && 2*n >= len(fs)
}
