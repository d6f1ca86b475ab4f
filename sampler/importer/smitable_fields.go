package importer

import (
	"strconv"

	"github.com/gpuscope/gpuscope/sampler"
)

// dmonField is the Metric one `nvidia-smi dmon` column feeds and how its
// value reads, nil for a column it does not feed. Units are the ones dmon
// documents: W, C, %, MHz, MB (fb), MB/s (rxpci/txpci), counts. A switch,
// not a map literal of closures, which init built entry by entry and each
// closure a function of its own (binary size: docs/benchmarks.md).
func dmonField(c string, g *sampler.GPU) (*sampler.Metric, kind) {
	switch c {
	case "pwr":
		return &g.Power, plain
	case "gtemp", "temp": // temp: dmon before driver 410
		return &g.Temp, plain
	case "sm":
		// dmon's "sm" is NVML's GPU utilisation (the same number as
		// utilization.gpu), not GPM SM activity.
		return &g.Util, plain
	case "mem":
		return &g.MemUtil, plain
	case "enc":
		return &g.EncUtil, plain
	case "dec":
		return &g.DecUtil, plain
	case "mclk":
		return &g.MemClock, plain
	case "pclk":
		return &g.SMClock, plain
	case "fb":
		return &g.MemUsed, memory
	case "sbecc":
		return &g.ECCCorrected, plain
	case "dbecc":
		return &g.ECCUncorrected, plain
	case "pci":
		return &g.PCIeReplays, plain
	case "rxpci":
		return &g.PCIeRx, rate
	case "txpci":
		return &g.PCIeTx, rate
	}
	return nil, plain
}

// dmonKnown: columns read elsewhere or deliberately not shown. A switch,
// not a map literal, which init built entry by entry (binary size:
// docs/benchmarks.md).
func dmonKnown(c string) bool {
	switch c {
	case "date", "time", "gpu", "mtemp", "jpg", "ofa", "bar1", "ccpm", "pviol", "tviol", "nvdec", "nvenc":
		return true
	}
	return false
}

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
		field, k := dmonField(c, g)
		if field == nil {
			if !dmonKnown(c) {
				t.addOnce("col:"+c, "line %d: column %q is not one gpuscope uses; ignored", t.in.no, c)
			}
			continue
		}
		m, err := parseValue(cells[i], k, "")
		if err != nil {
			t.addOnce("bad:"+c, "line %d: column %q: %v; read as n/a (later rows not reported)", t.in.no, c, err)
		}
		*field = m
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

// pmonField is the Metric one pmon per-process column feeds (as dmonField).
func pmonField(c string, p *sampler.GPUProc) (*sampler.Metric, kind) {
	switch c {
	case "sm":
		return &p.SMUtil, plain
	case "mem":
		return &p.MemUtil, plain
	case "fb":
		return &p.MemUsed, memory
	}
	return nil, plain
}

// pmonKnown: pmon's columns read elsewhere or not shown (as dmonKnown).
func pmonKnown(c string) bool {
	switch c {
	case "date", "time", "gpu", "pid", "type", "command", "enc", "dec", "jpg", "ofa", "ccpm":
		return true
	}
	return false
}

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
		field, k := pmonField(c, &p)
		if field == nil {
			if !pmonKnown(c) {
				t.addOnce("col:"+c, "line %d: column %q is not one gpuscope uses; ignored", t.in.no, c)
			}
			continue
		}
		m, err := parseValue(cells[i], k, "")
		if err != nil {
			t.addOnce("bad:"+c, "line %d: column %q: %v; read as n/a (later rows not reported)", t.in.no, c, err)
		}
		*field = m
	}
	g.Procs = append(g.Procs, p)
}
