package importer

import (
	"strconv"

	"github.com/gpuscope/gpuscope/sampler"
)

// dmonColumn is what one `nvidia-smi dmon` column feeds. Units are the ones
// dmon documents: W, C, %, MHz, MB (fb), MB/s (rxpci/txpci), counts.
type dmonColumn struct {
	kind  kind
	field func(*sampler.GPU) *sampler.Metric
}

var dmonColumns = map[string]dmonColumn{
	"pwr":   {plain, func(g *sampler.GPU) *sampler.Metric { return &g.Power }},
	"gtemp": {plain, func(g *sampler.GPU) *sampler.Metric { return &g.Temp }},
	"temp":  {plain, func(g *sampler.GPU) *sampler.Metric { return &g.Temp }}, // dmon before driver 410
	// dmon's "sm" is NVML's GPU utilisation (the same number as
	// utilization.gpu), not GPM SM activity.
	"sm":    {plain, func(g *sampler.GPU) *sampler.Metric { return &g.Util }},
	"mem":   {plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemUtil }},
	"enc":   {plain, func(g *sampler.GPU) *sampler.Metric { return &g.EncUtil }},
	"dec":   {plain, func(g *sampler.GPU) *sampler.Metric { return &g.DecUtil }},
	"mclk":  {plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemClock }},
	"pclk":  {plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }},
	"fb":    {memory, func(g *sampler.GPU) *sampler.Metric { return &g.MemUsed }},
	"sbecc": {plain, func(g *sampler.GPU) *sampler.Metric { return &g.ECCCorrected }},
	"dbecc": {plain, func(g *sampler.GPU) *sampler.Metric { return &g.ECCUncorrected }},
	"pci":   {plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeReplays }},
	"rxpci": {rate, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeRx }},
	"txpci": {rate, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeTx }},
}

// dmonKnown are columns read elsewhere or deliberately not shown.
var dmonKnown = map[string]bool{"date": true, "time": true, "gpu": true, "mtemp": true, "jpg": true,
	"ofa": true, "bar1": true, "ccpm": true, "pviol": true, "tviol": true, "nvdec": true, "nvenc": true}

func (t *smiTable) fillGPU(g *sampler.GPU, cells []string) {
	var pviol, tviol sampler.Metric
	for i, c := range t.cols {
		switch c {
		case "pviol", "tviol":
			m, _ := parseValue(cells[i], plain, "")
			if c == "pviol" {
				pviol = m
			} else {
				tviol = m
			}
			continue
		}
		col, ok := dmonColumns[c]
		if !ok {
			if !dmonKnown[c] {
				t.addOnce("col:"+c, "line %d: column %q is not one gpuscope uses; ignored", t.in.no, c)
			}
			continue
		}
		m, err := parseValue(cells[i], col.kind, "")
		if err != nil {
			t.addOnce("bad:"+c, "line %d: column %q: %v; read as n/a (later rows not reported)", t.in.no, c, err)
		}
		*col.field(g) = m
	}
	// -s v prints the share of time clocks were held down by the power and
	// thermal policies; any share > 0 maps to the matching clock event bit
	// (dmon has no event mask, and these are its nearest words).
	if pviol.OK && tviol.OK {
		g.ClockEvents.OK = true
		if pviol.V > 0 {
			g.ClockEvents.Mask |= sampler.ClockSwPowerCap
		}
		if tviol.V > 0 {
			g.ClockEvents.Mask |= sampler.ClockSwThermal
		}
	}
}

// pmonColumns are pmon's per-process columns.
var pmonColumns = map[string]struct {
	kind  kind
	field func(*sampler.GPUProc) *sampler.Metric
}{
	"sm":  {plain, func(p *sampler.GPUProc) *sampler.Metric { return &p.SMUtil }},
	"mem": {plain, func(p *sampler.GPUProc) *sampler.Metric { return &p.MemUtil }},
	"fb":  {memory, func(p *sampler.GPUProc) *sampler.Metric { return &p.MemUsed }},
}

var pmonKnown = map[string]bool{"date": true, "time": true, "gpu": true, "pid": true, "type": true, "command": true,
	"enc": true, "dec": true, "jpg": true, "ofa": true, "ccpm": true}

func (t *smiTable) fillProc(g *sampler.GPU, cells []string, pidCell string) {
	pid, err := strconv.Atoi(pidCell)
	if err != nil || pid <= 0 {
		return // "-": the GPU had no process this tick
	}
	p := sampler.GPUProc{PID: pid}
	for i, c := range t.cols {
		if c == "type" && !isNA(cells[i]) {
			p.Type = cells[i]
		}
		if c == "command" && !isNA(cells[i]) {
			// The only host-side fact pmon has; the rest stays n/a.
			p.Host = &sampler.Proc{PID: pid, Name: cells[i]}
		}
		col, ok := pmonColumns[c]
		if !ok {
			if !pmonKnown[c] {
				t.addOnce("col:"+c, "line %d: column %q is not one gpuscope uses; ignored", t.in.no, c)
			}
			continue
		}
		m, err := parseValue(cells[i], col.kind, "")
		if err != nil {
			t.addOnce("bad:"+c, "line %d: column %q: %v; read as n/a (later rows not reported)", t.in.no, c, err)
		}
		*col.field(&p) = m
	}
	g.Procs = append(g.Procs, p)
}
