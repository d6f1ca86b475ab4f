package importer

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// smiXML reads `nvidia-smi -q -x` output: one <nvidia_smi_log> document per
// snapshot, several when run with -l (documents simply follow each other).
// The decoder streams: only one <gpu> element is held at a time.
type smiXML struct {
	name string
	opts Options
	dec  *xml.Decoder
	warnings
	k    ticks
	good int
	done bool
	// per document
	inDoc bool
	node  sampler.Node
	stamp string
	gpus  []sampler.GPU
}

func newSMIXML(br *bufio.Reader, name string, o Options) (*smiXML, error) {
	x := &smiXML{name: name, opts: o, dec: xml.NewDecoder(br)}
	x.dec.Strict = false // real files carry a DOCTYPE and, with -l, several prologs
	x.k = ticks{source: SMIXML, opts: o, warn: &x.warnings}
	return x, nil
}

func (x *smiXML) Close() error { return nil }

func (x *smiXML) Next() (sampler.Snapshot, error) {
	for !x.done {
		tok, err := x.dec.Token()
		if err != nil {
			x.done = true
			return x.end(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := x.start(t); err != nil {
				x.done = true
				return x.end(err)
			}
		case xml.EndElement:
			if t.Name.Local == "nvidia_smi_log" && x.inDoc {
				return x.emit(), nil
			}
		}
	}
	return sampler.Snapshot{}, io.EOF
}

func (x *smiXML) start(t xml.StartElement) error {
	switch t.Name.Local {
	case "nvidia_smi_log":
		x.inDoc, x.node, x.stamp, x.gpus = true, sampler.Node{}, "", nil
	case "timestamp":
		return x.dec.DecodeElement(&x.stamp, &t)
	case "driver_version":
		return x.dec.DecodeElement(&x.node.Driver, &t)
	case "cuda_version":
		return x.dec.DecodeElement(&x.node.CUDA, &t)
	case "gpu":
		var g xmlGPU
		err := x.dec.DecodeElement(&g, &t)
		if err == nil || cutShort(err) && g.ProductName != "" {
			// A paste cut inside a <gpu> keeps what came before the cut, as
			// a cut -q does: its missing elements read as n/a.
			x.gpus = append(x.gpus, x.convert(&g, len(x.gpus)))
		}
		return err
	}
	return nil
}

func (x *smiXML) emit() sampler.Snapshot {
	x.inDoc = false
	r := row{index: -1}
	if x.stamp != "" {
		if t, err := parseTime(x.stamp, x.opts.Location); err == nil {
			r.t, r.hasT = t, true
		} else {
			x.addOnce("stamp", "line %d: %v; times are synthesized", x.line(), err)
		}
	}
	x.k.start(r)
	x.k.cur = x.gpus
	x.k.nodeTmpl = sampler.Node{Driver: naString(x.node.Driver), CUDA: naString(x.node.CUDA)}
	snap, _ := x.k.flush()
	x.good++
	return snap
}

// end turns the decoder's last error into EOF (with a warning when a
// document was cut off) or an error naming the line.
func (x *smiXML) end(err error) (sampler.Snapshot, error) {
	cut := x.inDoc || errors.Is(err, io.ErrUnexpectedEOF)
	switch {
	case err == io.EOF && !x.inDoc:
		if x.good == 0 {
			return sampler.Snapshot{}, fmt.Errorf("%s: no <nvidia_smi_log> document; want nvidia-smi -q -x output", x.name)
		}
		return sampler.Snapshot{}, io.EOF
	case x.good > 0 && (cut || err != io.EOF):
		x.add("line %d: the last document is cut off or damaged (%v); read %s", x.line(), err, sampler.Counted(x.good, "snapshot", "snapshots"))
		return sampler.Snapshot{}, io.EOF
	case x.inDoc && len(x.gpus) > 0:
		x.add("line %d: the document is cut off (%v); read the %s before the cut", x.line(), err, countGPUs(len(x.gpus)))
		return x.emit(), nil
	}
	return sampler.Snapshot{}, fmt.Errorf("%s: line %d: %v; want nvidia-smi -q -x output", x.name, x.line(), err)
}

// cutShort: the decoder reached the end of the input inside an element.
func cutShort(err error) bool {
	var se *xml.SyntaxError
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &se) && se.Msg == "unexpected EOF"
}

// Out of line: inlined at its many call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func (x *smiXML) line() int { l, _ := x.dec.InputPos(); return l }

// convert maps one <gpu> to a sampler.GPU; index is its order in the file
// (nvidia-smi lists GPUs in index order; the XML has no index element).
func (x *smiXML) convert(g *xmlGPU, index int) sampler.GPU {
	v := func(s string, k kind) sampler.Metric {
		m, err := parseValue(s, k, "")
		if err != nil {
			x.addOnce("v:"+err.Error(), "line %d: %v; read as n/a", x.line(), err)
		}
		return m
	}
	out := sampler.GPU{
		Index: index, UUID: naString(g.UUID), Name: naString(g.ProductName),
		BusID: naString(g.PCI.BusID), Persistence: onOff(g.Persistence),
		ComputeMode: strings.ToLower(naString(g.ComputeMode)), MIG: strings.EqualFold(g.MIGCurrent, "enabled"),
		FabricState: naString(g.FabricState), FabricStatus: naString(g.FabricStat),
		Util: v(g.Util.GPU, plain), MemUtil: v(g.Util.Mem, plain),
		EncUtil: v(g.Util.Enc, plain), DecUtil: v(g.Util.Dec, plain),
		MemUsed: v(g.FB.Used, memory), MemTotal: v(g.FB.Total, memory),
		Temp: v(g.Temp.GPU, plain), TempSlowdown: v(g.Temp.Slowdown, plain), TempMaxOp: v(g.Temp.MaxOp, plain),
		TempTarget: v(g.Temp.Target, plain), TempShutdown: v(g.Temp.Shutdown, plain),
		Fan: v(g.Fan, plain), PState: v(g.PState, pstate),
		SMClock: v(first(g.Clocks.SM, g.Clocks.Graphics), plain), MemClock: v(g.Clocks.Mem, plain),
		SMClockMax: v(first(g.MaxClocks.SM, g.MaxClocks.Graphics), plain), MemClockMax: v(g.MaxClocks.Mem, plain),
		PCIeGen: v(g.PCI.GenCur, plain), PCIeGenMax: v(g.PCI.GenMax, plain),
		PCIeWidth: v(g.PCI.WidthCur, plain), PCIeWidthMax: v(g.PCI.WidthMax, plain),
		PCIeReplays: v(g.PCI.Replay, plain), PCIeTx: v(g.PCI.TX, rate), PCIeRx: v(g.PCI.RX, rate),
	}
	if out.BusID == "" {
		out.BusID = g.ID
	}
	out.ClockEvents = g.EventReasons.events()
	if !out.ClockEvents.OK {
		out.ClockEvents = g.ThrottleReasons.events()
	}
	for _, p := range []xmlPower{g.GPUPower, g.Power} {
		if !out.Power.OK {
			out.Power = v(first(p.Draw, p.Average, p.Instant), plain)
		}
		if !out.PowerLimit.OK {
			out.PowerLimit = v(first(p.Enforced, p.Current, p.Limit), plain)
		}
	}
	out.ECCCorrected = eccSum(v, g.ECC.SingleBit, g.ECC.SRAMCorr, g.ECC.DRAMCorr)
	out.ECCUncorrected = eccSum(v, g.ECC.DoubleBit, g.ECC.SRAMUnc, g.ECC.DRAMUnc)
	for _, p := range g.Procs {
		pid, err := strconv.Atoi(strings.TrimSpace(p.PID))
		if err != nil {
			continue
		}
		proc := sampler.GPUProc{PID: pid, Type: naString(strings.TrimSpace(p.Type)), MemUsed: v(p.Memory, memory)}
		if name := naString(strings.TrimSpace(p.Name)); name != "" {
			proc.Host = &sampler.Proc{PID: pid, Name: name} // all the host data the XML has
		}
		out.Procs = append(out.Procs, proc)
	}
	return out
}

// first is the first value that is present (not empty, not N/A).
func first(vals ...string) string {
	for _, s := range vals {
		if s = strings.TrimSpace(s); !isNA(s) {
			return s
		}
	}
	return ""
}

// eccSum reads the older total, else sums the newer SRAM and DRAM counters.
func eccSum(v func(string, kind) sampler.Metric, total, sram, dram string) sampler.Metric {
	if m := v(total, plain); m.OK {
		return m
	}
	s, d := v(sram, plain), v(dram, plain)
	if !s.OK && !d.OK {
		return sampler.NA
	}
	return sampler.Some(s.Or(0) + d.Or(0))
}
