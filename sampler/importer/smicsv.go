package importer

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// smiCSV reads `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]
// [-l N | -lms N]`: one row per GPU per tick, columns in any order.
type smiCSV struct {
	rowLog
	opts     Options
	cols     []csvColumn
	units    []string
	names    []string // the header's field names, to name a failed read
	header   string   // the header line as read, to skip repeats
	headerAt int
	uuids    map[string]int // index by UUID or bus id when there is no index column
	// byPosition: no identity column at all; the index is the row's place
	// within its tick.
	byPosition bool
}

func newSMICSV(br *bufio.Reader, name string, o Options) (*smiCSV, error) {
	s := &smiCSV{rowLog: rowLog{name: name, in: lines{br: br}}, opts: o, uuids: map[string]int{}}
	s.k = ticks{source: SMICSV, opts: o, warn: &s.warnings}
	return s, nil
}

func (s *smiCSV) Close() error { return nil }

func (s *smiCSV) Next() (sampler.Snapshot, error) { return s.next(s.line) }

func (s *smiCSV) line(line string) (sampler.Snapshot, bool, error) {
	if s.in.torn { // nvidia-smi ends every row with a newline: this one was cut
		s.add("line %d: torn last line (log was cut off); ignored", s.in.no)
		return sampler.Snapshot{}, false, nil
	}
	cells := splitCSV(line)
	if isSMICSVHeader(cells) {
		if line != s.header && s.header != "" {
			s.add("line %d: a different header (logging restarted with other fields); columns re-read", s.in.no)
		}
		s.setHeader(cells, line)
		return sampler.Snapshot{}, false, nil
	}
	if s.cols == nil {
		if !headerlessLayout(cells) {
			return sampler.Snapshot{}, false, fmt.Errorf("%s: line %d: no header line, and the values are not the "+
				"index, utilization.gpu, memory.used, memory.total layout; keep the header (drop \"noheader\" from --format)",
				s.name, s.in.no)
		}
		s.add("no header line; read as index, utilization.gpu, memory.used, memory.total")
		s.setHeader([]string{"index", "utilization.gpu", "memory.used", "memory.total"}, "")
	}
	if len(cells) != len(s.cols) {
		s.bad(fmt.Sprintf("line %d: %d fields, want %d as in the header on line %d; row skipped",
			s.in.no, len(cells), len(s.cols), s.headerAt))
		return sampler.Snapshot{}, false, nil
	}
	s.noteFailedReads(cells)
	snap, ready, err := s.row(cells)
	if err != nil {
		s.bad(err.Error())
		return sampler.Snapshot{}, false, nil
	}
	s.good++
	return snap, ready, nil
}

func (s *smiCSV) bad(msg string) {
	if s.firstBad == "" {
		s.firstBad = msg
	}
	s.add("%s", msg)
}

func (s *smiCSV) setHeader(cells []string, line string) {
	s.header, s.headerAt = line, s.in.no
	s.cols, s.units, s.names = make([]csvColumn, len(cells)), make([]string, len(cells)), make([]string, len(cells))
	var unknown []string
	for i, c := range cells {
		name, unit := splitHeaderUnit(c)
		col, ok := csvColumns[name]
		if !ok {
			col.role = roleIgnore
			unknown = append(unknown, name)
		}
		s.cols[i], s.units[i], s.names[i] = col, unit, name
	}
	if len(unknown) > 0 {
		shown := unknown
		more := ""
		if len(shown) > 8 { // a full-field-list query has 150+: name a few
			shown, more = shown[:8], fmt.Sprintf(" and %d more", len(unknown)-8)
		}
		s.addOnce("unknown:"+strings.Join(unknown, ","), "line %d: %d columns gpuscope does not use, ignored: %s%s",
			s.in.no, len(unknown), strings.Join(shown, ", "), more)
	}
}

// row parses one GPU row; it may close the previous tick.
func (s *smiCSV) row(cells []string) (sampler.Snapshot, bool, error) {
	r := row{index: -1}
	var g sampler.GPU
	g.Index = -1
	var free sampler.Metric
	var driver string
	for i, c := range s.cols {
		cell := cells[i]
		switch c.role {
		case roleTime:
			t, err := parseTime(cell, s.opts.Location)
			if err != nil {
				return sampler.Snapshot{}, false, fmt.Errorf("line %d: timestamp: %v", s.in.no, err)
			}
			r.t, r.hasT = t, true
		case roleIndex:
			n, err := strconv.Atoi(cell)
			if err != nil || n < 0 {
				return sampler.Snapshot{}, false, fmt.Errorf("line %d: index %q is not a GPU index (want 0, 1, ...)", s.in.no, cell)
			}
			g.Index = n
		case roleUUID:
			g.UUID = naString(cell)
		case roleName:
			g.Name = naString(cell)
		case roleBus:
			g.BusID = naString(cell)
		case roleDriver:
			driver = naString(cell)
		case rolePersistence:
			g.Persistence = onOff(cell)
		case roleComputeMode:
			g.ComputeMode = strings.ToLower(naString(cell))
		case roleMIG:
			g.MIG = strings.EqualFold(cell, "enabled")
		case roleReason:
			if on, ok := activeFlag(cell); ok {
				g.ClockEvents.OK = true
				if on {
					g.ClockEvents.Mask |= c.bit
				}
			}
		case roleMask, roleFree, roleMetric:
			m, err := parseValue(cell, c.kind, s.units[i])
			if err != nil {
				s.addOnce(fmt.Sprintf("col%d", i), "line %d: column %d: %v; read as n/a (later rows not reported)", s.in.no, i+1, err)
			}
			switch {
			case c.role == roleMask:
				if m.OK {
					g.ClockEvents = sampler.ClockEvents{Mask: uint64(m.V), OK: true}
				}
			case c.role == roleFree:
				free = m
			case m.OK && (!c.weak || !c.field(&g).OK): // an n/a never hides another column's reading
				*c.field(&g) = m
			}
		}
	}
	if !g.MemTotal.OK && free.OK && g.MemUsed.OK {
		g.MemTotal = sampler.Some(g.MemUsed.V + free.V)
	}
	s.identify(&g, &r)
	done, ready := s.k.start(r)
	if s.byPosition {
		g.Index = len(s.k.cur) // the row's place in its tick
	}
	if driver != "" {
		s.k.nodeTmpl.Driver = driver
	}
	*s.k.gpu(g.Index) = g
	return done, ready, nil
}

// identify sets the GPU index and the row's identity for grouping: the
// index column, else the order in which UUIDs (or bus ids) first appear.
func (s *smiCSV) identify(g *sampler.GPU, r *row) {
	id := g.UUID
	if id == "" {
		id = g.BusID
	}
	switch {
	case g.Index >= 0:
		r.key, r.index = strconv.Itoa(g.Index), g.Index
	case id != "":
		n, ok := s.uuids[id]
		if !ok {
			n = len(s.uuids)
			s.uuids[id] = n
		}
		g.Index, r.key, r.index = n, id, n
	default:
		// No identity column: GPUs are told apart by their position
		// within a tick. A tick is the rows of one timestamp; without
		// timestamps, the rows until a GPU name repeats (so GPUs of one
		// model and no timestamps read as one GPU: warned).
		s.byPosition = true
		if !r.hasT {
			r.key = "name:" + g.Name
		}
		s.addOnce("noid", "the log has no index, uuid or pci.bus_id column; GPUs are told apart by their "+
			"position within each tick (the rows of one timestamp, or until a GPU name repeats)")
	}
}

// Out of line: inlined at its many call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func naString(s string) string {
	if isNA(s) {
		return ""
	}
	return s
}

// onOff is out of line, as naString.
//
//go:noinline
func onOff(s string) string {
	switch strings.ToLower(s) {
	case "enabled", "on":
		return "on"
	case "disabled", "off":
		return "off"
	}
	return ""
}

// noteCut warns about a log whose data ended in a damaged stream.
func noteCut(w *warnings, in *lines) {
	if in.ioErr != nil {
		w.addOnce("ioerr", "after line %d: the file's data is cut off or damaged (%v)", in.no, in.ioErr)
	}
}
