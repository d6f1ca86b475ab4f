package importer

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// smiTable reads `nvidia-smi dmon` and `nvidia-smi pmon` output: "#" header
// lines (names, then units) repeated every screenful, then whitespace- or
// comma-separated rows (--format csv), "-" for a missing value, optional
// Date/Time columns (-o DT). dmon prints one row per GPU per tick; pmon one
// row per process (or a "-" row for an idle GPU).
type smiTable struct {
	rowLog
	format   Format
	opts     Options
	cols     []string // lower-case names from the last header
	comma    bool     // --format csv
	headerAt int
	lastT    time.Time // for -o T rows (time without date) crossing midnight
}

func newDmon(br *bufio.Reader, name string, o Options) (*smiTable, error) {
	return newSMITable(br, name, o, SMIDmon), nil
}

func newPmon(br *bufio.Reader, name string, o Options) (*smiTable, error) {
	return newSMITable(br, name, o, SMIPmon), nil
}

// Out of line: inlined at its call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func newSMITable(br *bufio.Reader, name string, o Options, f Format) *smiTable {
	t := &smiTable{rowLog: rowLog{name: name, in: lines{br: br}}, format: f, opts: o}
	t.k = ticks{source: f, opts: o, warn: &t.warnings}
	return t
}

func (t *smiTable) Close() error { return nil }

func (t *smiTable) Next() (sampler.Snapshot, error) { return t.next(t.line) }

func (t *smiTable) line(line string) (sampler.Snapshot, bool, error) {
	trimmed := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(trimmed, "#"):
		t.header(trimmed)
		return sampler.Snapshot{}, false, nil
	case t.in.torn: // the tools end every row with a newline: this one was cut
		t.add("line %d: torn last line (log was cut off); ignored", t.in.no)
		return sampler.Snapshot{}, false, nil
	case t.cols == nil:
		return sampler.Snapshot{}, false, fmt.Errorf("%s: line %d: a row before any \"# gpu ...\" header line; "+
			"want the %s output with its header lines", t.name, t.in.no, t.format)
	}
	snap, ready, err := t.row(t.cells(trimmed))
	if err != nil {
		t.skip(err)
		return sampler.Snapshot{}, false, nil
	}
	t.good++
	return snap, ready, nil
}

// header takes the names line and skips the units line that follows it.
func (t *smiTable) header(line string) {
	names := hashHeaderNames(line)
	isNames := false
	for _, n := range names {
		if n == "gpu" {
			isNames = true
		}
	}
	if !isNames {
		return // the units line ("# Idx W C ..."), or a comment
	}
	t.comma = strings.Contains(line, ",")
	t.cols, t.headerAt = names, t.in.no
}

func (t *smiTable) cells(line string) []string {
	if t.comma {
		return splitCSV(line)
	}
	f := strings.Fields(line)
	// pmon's command is the last column and may contain spaces.
	if n := len(t.cols); len(f) > n && n > 0 && t.cols[n-1] == "command" {
		f = append(f[:n-1], strings.Join(f[n-1:], " "))
	}
	return f
}

func (t *smiTable) row(cells []string) (sampler.Snapshot, bool, error) {
	if len(cells) != len(t.cols) {
		return sampler.Snapshot{}, false, fmt.Errorf("line %d: %d fields, want %d as in the header on line %d",
			t.in.no, len(cells), len(t.cols), t.headerAt)
	}
	var date, clock string
	idx := -1
	pid := "-"
	for i, c := range t.cols {
		switch c {
		case "date":
			date = cells[i]
		case "time":
			clock = cells[i]
		case "gpu":
			n, err := strconv.Atoi(cells[i])
			if err != nil || n < 0 {
				return sampler.Snapshot{}, false, fmt.Errorf("line %d: gpu %q is not a GPU index", t.in.no, cells[i])
			}
			idx = n
		case "pid":
			pid = cells[i]
		}
	}
	r := row{index: idx, key: strconv.Itoa(idx)}
	if t.format == SMIPmon {
		r.key += "/" + pid
	}
	if clock != "" {
		ts, err := t.rowTime(date, clock)
		if err != nil {
			return sampler.Snapshot{}, false, fmt.Errorf("line %d: %v", t.in.no, err)
		}
		r.t, r.hasT = ts, true
	}
	done, ready := t.k.start(r)
	g := t.k.gpu(idx)
	if t.format == SMIPmon {
		t.fillProc(g, cells, pid)
	} else {
		t.fillGPU(g, cells)
	}
	return done, ready, nil
}

// rowTime reads -o DT ("20240501", "12:00:00") or -o T (time only: the
// date comes from Options.Start, rolling over at midnight).
func (t *smiTable) rowTime(date, clock string) (time.Time, error) {
	if date != "" {
		return parseTime(date+" "+clock, t.opts.Location)
	}
	c, err := time.ParseInLocation("15:04:05", clock, t.opts.Location)
	if err != nil {
		return time.Time{}, fmt.Errorf("time %q is not HH:MM:SS", clock)
	}
	base := t.opts.Start.In(t.opts.Location)
	if !t.lastT.IsZero() {
		base = t.lastT
	}
	y, m, d := base.Date()
	ts := time.Date(y, m, d, c.Hour(), c.Minute(), c.Second(), 0, t.opts.Location)
	if !t.lastT.IsZero() && ts.Before(t.lastT.Add(-12*time.Hour)) { // a backwards jump this big is midnight
		ts = ts.AddDate(0, 0, 1)
	}
	t.lastT = ts
	t.addOnce("dateless", "the log has times but no dates (-o T); dates start at %s", base.Format("2006-01-02"))
	return ts, nil
}
