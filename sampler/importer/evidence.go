package importer

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Pasted is the format of text that is not one log from start to end: the
// default nvidia-smi table, -q text, topo -m, kernel log lines, a bug
// report, or several outputs pasted together with prompts and prose. Its
// sections are read one by one and merged into one picture of one node.
const Pasted Format = "pasted-text"

// Evidence is implemented by the Stream of pasted text: what each section
// was read as, and where in the input a GPU's reading came from.
type Evidence interface {
	// Sections says, one line each, what every section was read as or why
	// it was skipped.
	Sections() []string
	// Where names the input line a GPU's field was read from ("" unknown);
	// field is the snapshot JSON name ("mem_used", "util", "xids" ...).
	Where(gpu int, field string) string
}

// part is what one section yielded.
type part struct {
	sec         *section
	no          int // section number, 1-based
	loc         *time.Location
	snaps       []sampler.Snapshot
	timed       bool
	t           time.Time
	at          map[fieldAt]int // (GPU index in this part, field) -> line
	notes       []string
	skipped     string
	procsListed bool
	warn        []string
}

type fieldAt struct {
	gpu   int
	field string
}

// newPart, note and where are out of line: a copy at each of their ~100
// call sites cost more than the calls (docs/benchmarks.md, corpus batch 8).
//
//go:noinline
func newPart(sec *section) *part {
	return &part{sec: sec, loc: time.UTC, at: map[fieldAt]int{}}
}

//go:noinline
func (p *part) note(s string) { p.notes = append(p.notes, s) }

//go:noinline
func (p *part) where(gpu int, field string, line int) { p.at[fieldAt{gpu, field}] = line }

// setTime dates the part's snapshots that carry no time of their own.
func (p *part) setTime(t time.Time, line int) {
	p.timed, p.t = true, t
	p.where(-1, "time", line)
}

// skip is called from every reader (noinline: one copy, not thirty).
//
//go:noinline
func (p *part) skip(why string) *part {
	p.skipped = why
	p.snaps = nil
	return p
}

// line describes this part for the sections list.
func (p *part) line() string {
	s := p.sec
	where := fmt.Sprintf("lines %d-%d", s.first, s.first+len(s.lines)-1)
	if len(s.lines) == 1 {
		where = fmt.Sprintf("line %d", s.first)
	}
	if s.file != "" {
		where = s.file + " " + where
	}
	kind := s.kind
	if s.kind == kindStream {
		kind = string(s.format)
	}
	if p.skipped != "" {
		return fmt.Sprintf("section %d, %s (%s): skipped: %s", p.no, where, kind, p.skipped)
	}
	n := len(p.snaps)
	what := strings.Join(p.notes, ", ")
	if n > 1 {
		what = sampler.Counted(n, "snapshot", "snapshots") + "; " + what
	}
	return fmt.Sprintf("section %d, %s (%s): read: %s", p.no, where, kind, strings.TrimSuffix(what, ", "))
}

// readSections parses every section of the inputs.
func readSections(secs []section, o Options) []*part {
	var parts []*part
	seen := map[string]bool{}
	mismatch := false // one driver mismatch is the node's: the first is read
	for i := range secs {
		s := &secs[i]
		var p *part
		switch s.kind {
		case kindTable:
			p = parseTable(s, o.Location)
		case kindQuery:
			p = parseQuery(s, o.Location)
		case kindTopo:
			p = parseTopo(s)
		case kindKernel:
			p = parseKernel(s, seen)
		case kindSMIError:
			p = parseSMIErrors(s, containerEvidence(secs, i), hypervisorSeen(secs))
		case kindList:
			p = parseList(s)
		case kindCUDAInit:
			p = parseCUDAInit(s)
		case kindHAMiOOM, kindVCUDAOOM:
			p = parseSliceOOM(s)
		case kindTorchOOM:
			p = parseTorchOOM(s)
		case kindCUDAOOM:
			p = parseCUDAOOM(s)
		case kindFabricManager:
			p = parseFabricLog(s, noSwitch(secs), switchShown(secs))
		case kindNVLinkStatus:
			p = parseNVLinkStatus(s)
		case kindNVLinkSpeed:
			p = parseNVLinkSpeed(s)
		case kindDCGMHealth:
			p = parseDCGMHealth(s)
		case kindDCGMXid:
			p = parseDCGMXid(s, seen)
		case kindPluginXid:
			p = parsePluginXid(s, seen)
		case kindLspciGone:
			p = parseLspciGone(s)
		case kindNVMLLost:
			p = parseNVMLLost(s)
		case kindDiagErr:
			p = parseDiagErr(s)
		case kindNCCLWarn:
			p = parseNCCLWarn(s)
		case kindDiag:
			p = parseDiag(s)
		case kindMIG:
			p = parseMIG(s)
		case kindCtrRuntime:
			p = parseCtrRuntime(s)
		case kindSlurmGRES:
			p = slurmGRES.parse(s)
		case kindShareErr:
			p = shareErr.parse(s)
		case kindStream:
			p = parseStreamSection(s, o)
		default:
			p = newPart(s).skip(otherWhy(s.lines))
		}
		p.no = i + 1
		parts = append(parts, p)
		if !mismatch {
			if q := parseDriverMismatch(s); q != nil {
				mismatch, q.no = true, i+1
				if len(p.snaps) == 0 { // what the section's own reader could not read is this
					parts[len(parts)-1] = q
				} else {
					parts = append(parts, q)
				}
			}
		}
	}
	return parts
}

func otherWhy(ls []string) string {
	for _, l := range ls {
		if promptRE.MatchString(l) {
			return "a shell prompt and text that is not GPU output"
		}
	}
	return "not GPU output gpuscope reads (prose or another tool's text)"
}

// parseStreamSection reads a CSV/dmon/pmon/dcgmi/XML run with its
// streaming reader.
func parseStreamSection(s *section, o Options) *part {
	p := newPart(s)
	text := strings.Join(s.lines, "\n") + "\n"
	if s.format == SMICSV && strings.HasPrefix(strings.TrimSpace(s.lines[0]), "#") {
		text = uncomment(s.lines)
	}
	if s.header != "" { // rows printed with noheader: the command line named the fields
		text = s.header + "\n" + text
		p.note("header taken from the --query-gpu command line")
	}
	// The section's reader directly, not NewStream: detection could send
	// text the section finder took for a log back to the paste reader.
	st, err := newParser(s.format, bufio.NewReaderSize(strings.NewReader(text), readBufBytes), "section", o)
	if err != nil {
		return p.skip(err.Error())
	}
	defer st.Close()
	for {
		snap, err := st.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p.skip(err.Error())
		}
		p.snaps = append(p.snaps, snap)
	}
	for _, w := range st.Warnings() {
		p.warn = append(p.warn, w)
	}
	p.timed = true
	gpus := map[int]bool{}
	for _, sn := range p.snaps {
		for _, g := range sn.GPUs {
			gpus[g.Index] = true
			if len(g.Procs) > 0 {
				p.procsListed = true
			}
		}
	}
	p.note(countGPUs(len(gpus)))
	if len(p.snaps) == 0 {
		return p.skip("no rows")
	}
	return p
}

// uncomment strips the "#" a user put before every CSV line.
func uncomment(ls []string) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "#")))
		b.WriteByte('\n')
	}
	return b.String()
}
