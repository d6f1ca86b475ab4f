package importer

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// dcgmField is one DCGM field as `dcgmi dmon -e ...` prints it: the header
// shows each field's short tag (or, on some versions, its numeric id).
type dcgmField struct {
	id    int
	tag   string
	kind  kind
	field func(*sampler.GPU) *sampler.Metric
	weak  bool
}

// dcgmFields: the tags are DCGM's short names as dcgmi prints them,
// checked against DCGM's dcgm_fields.cpp (DcgmFieldsPopulateOneField...);
// the numeric ids are dcgm_fields.h's as remembered here (not re-checked),
// used only when a header shows ids. Profiling fields 1001-1012 are ratios
// (0.0-1.0); PCIe/NVLink profiling rates are bytes/s; TXTPT/RXTPT are KB/s;
// framebuffer fields are MiB. weak fields yield to a stronger one (PMLMT to
// EPLMT).
var dcgmFields = []dcgmField{
	{100, "SMCLK", plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }, false},
	{101, "MMCLK", plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemClock }, false},
	{112, "DVCCTR", plain, nil, false}, // clock throttle/event reasons bitmask, read in row
	{113, "SMMAX", plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClockMax }, false},
	{114, "MMMAX", plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemClockMax }, false},
	{140, "MMTMP", plain, nil, false},
	{150, "TMPTR", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Temp }, false},
	{158, "SDTMP", plain, func(g *sampler.GPU) *sampler.Metric { return &g.TempSlowdown }, false}, // DCGM_FI_DEV_SLOWDOWN_TEMP, dcgm_fields.h
	{155, "POWER", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Power }, false},
	{156, "TOTEC", plain, nil, false},
	{160, "PMLMT", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }, true},
	{164, "EPLMT", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }, false},
	{190, "PSTAT", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PState }, false},
	{191, "FANSP", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Fan }, false},
	{200, "TXTPT", rate, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeTx }, true},
	{201, "RXTPT", rate, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeRx }, true},
	{202, "RPCTR", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeReplays }, false},
	{203, "GPUTL", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Util }, false},
	{204, "MCUTL", plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemUtil }, false},
	{206, "ECUTL", plain, func(g *sampler.GPU) *sampler.Metric { return &g.EncUtil }, false},
	{207, "DCUTL", plain, func(g *sampler.GPU) *sampler.Metric { return &g.DecUtil }, false},
	{250, "FBTTL", memory, func(g *sampler.GPU) *sampler.Metric { return &g.MemTotal }, false},
	{251, "FBFRE", memory, nil, false}, // used with FBUSD to fill a missing total
	{252, "FBUSD", memory, func(g *sampler.GPU) *sampler.Metric { return &g.MemUsed }, false},
	{310, "ESVTL", plain, func(g *sampler.GPU) *sampler.Metric { return &g.ECCCorrected }, false},
	{311, "EDVTL", plain, func(g *sampler.GPU) *sampler.Metric { return &g.ECCUncorrected }, false},
	{1001, "GRACT", ratio, nil, false}, // graphics engine active: no GPU field (Util is NVML's)
	{1002, "SMACT", ratio, func(g *sampler.GPU) *sampler.Metric { return &g.SMActive }, false},
	{1003, "SMOCC", ratio, func(g *sampler.GPU) *sampler.Metric { return &g.SMOccupancy }, false},
	{1004, "TENSO", ratio, func(g *sampler.GPU) *sampler.Metric { return &g.TensorActive }, false},
	{1005, "DRAMA", ratio, func(g *sampler.GPU) *sampler.Metric { return &g.DRAMActive }, false},
	{1006, "FP64A", ratio, nil, false},
	{1007, "FP32A", ratio, nil, false},
	{1008, "FP16A", ratio, nil, false},
	{1009, "PCITX", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeTx }, false},
	{1010, "PCIRX", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeRx }, false},
	{1011, "NVLTX", plain, func(g *sampler.GPU) *sampler.Metric { return &g.NVLinkTx }, false},
	{1012, "NVLRX", plain, func(g *sampler.GPU) *sampler.Metric { return &g.NVLinkRx }, false},
}

func lookupDCGM(name string) (dcgmField, bool) {
	id, numeric := strconv.Atoi(name)
	for _, f := range dcgmFields {
		if (numeric == nil && f.id == id) || strings.EqualFold(f.tag, name) {
			return f, true
		}
	}
	return dcgmField{}, false
}

// dcgmi reads `dcgmi dmon -e ID,ID,... [-d ms]` output:
//
//	#Entity   SMACT   SMOCC   POWER
//	ID
//	GPU 0     0.512   0.231   310.250
//
// It has no timestamps: times are synthesized from Options.Start/Interval.
type dcgmi struct {
	rowLog
	cols []string
}

func newDCGMI(br *bufio.Reader, name string, o Options) (*dcgmi, error) {
	d := &dcgmi{rowLog: rowLog{name: name, in: lines{br: br}}}
	d.k = ticks{source: DCGMIDmon, opts: o, warn: &d.warnings}
	return d, nil
}

func (d *dcgmi) Close() error { return nil }

func (d *dcgmi) Next() (sampler.Snapshot, error) { return d.next(d.line) }

func (d *dcgmi) line(line string) (sampler.Snapshot, bool, error) {
	f := strings.Fields(line)
	switch {
	case strings.HasPrefix(f[0], "#"):
		d.header(f)
		return sampler.Snapshot{}, false, nil
	case len(f) == 1 && strings.EqualFold(f[0], "ID"): // the line under "#Entity"
		return sampler.Snapshot{}, false, nil
	case d.in.torn:
		d.add("line %d: torn last line (log was cut off); ignored", d.in.no)
		return sampler.Snapshot{}, false, nil
	case d.cols == nil:
		return sampler.Snapshot{}, false, fmt.Errorf("%s: line %d: a row before the \"#Entity ...\" header; "+
			"want dcgmi dmon output with its header", d.name, d.in.no)
	}
	snap, ready, err := d.row(f)
	if err != nil {
		d.skip(err)
		return sampler.Snapshot{}, false, nil
	}
	return snap, ready, nil
}

func (d *dcgmi) header(f []string) {
	f[0] = strings.TrimLeft(f[0], "#")
	if f[0] == "" {
		f = f[1:]
	}
	if len(f) == 0 || !strings.EqualFold(f[0], "entity") {
		return
	}
	d.cols = f[1:]
	var unknown []string
	for _, c := range d.cols {
		if _, ok := lookupDCGM(c); !ok {
			unknown = append(unknown, c)
		}
	}
	if len(unknown) > 0 {
		d.addOnce("unknown:"+strings.Join(unknown, ","), "line %d: DCGM fields gpuscope does not use, ignored: %s",
			d.in.no, strings.Join(unknown, ", "))
	}
}

// row reads "GPU 0  v1 v2 ...". Other entity kinds (GPU-I, GPU-CI, NVSwitch)
// are skipped: gpuscope's snapshot is per GPU.
func (d *dcgmi) row(f []string) (sampler.Snapshot, bool, error) {
	if len(f) < 2 {
		return sampler.Snapshot{}, false, fmt.Errorf("line %d: want \"GPU <id>\" then %d values", d.in.no, len(d.cols))
	}
	if !strings.EqualFold(f[0], "GPU") {
		d.addOnce("entity:"+f[0], "line %d: %s entities are not shown; skipped", d.in.no, f[0])
		return sampler.Snapshot{}, false, nil
	}
	idx, err := strconv.Atoi(f[1])
	if err != nil || idx < 0 {
		return sampler.Snapshot{}, false, fmt.Errorf("line %d: GPU id %q is not a number", d.in.no, f[1])
	}
	vals := f[2:]
	if len(vals) != len(d.cols) {
		return sampler.Snapshot{}, false, fmt.Errorf("line %d: %d values, want %d as in the header", d.in.no, len(vals), len(d.cols))
	}
	done, ready := d.k.start(row{key: strconv.Itoa(idx), index: idx})
	g := d.k.gpu(idx)
	var free sampler.Metric
	for i, c := range d.cols {
		fd, ok := lookupDCGM(c)
		if !ok {
			continue
		}
		unit := ""
		if fd.id == 200 || fd.id == 201 { // NVML's PCIe throughput counters are KB/s
			unit = "KB/s"
		}
		m, err := parseValue(vals[i], fd.kind, unit)
		if err != nil {
			d.addOnce("bad:"+c, "line %d: field %s: %v; read as n/a (later rows not reported)", d.in.no, c, err)
		}
		switch {
		case fd.id == 251:
			free = m
		case fd.id == 112 && m.OK: // NVML's clock event bits, printed in decimal
			g.ClockEvents = sampler.ClockEvents{Mask: uint64(m.V), OK: true}
		case fd.field != nil && m.OK && (!fd.weak || !fd.field(g).OK):
			*fd.field(g) = m
		}
	}
	if !g.MemTotal.OK && free.OK && g.MemUsed.OK {
		g.MemTotal = sampler.Some(g.MemUsed.V + free.V)
	}
	d.good++
	return done, ready, nil
}
