package importer

import (
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// qMetric is a -q key read as a number into a GPU field; the paths are
// the spellings drivers 3xx..6xx print (older first, newer after).
type qMetric struct {
	field string // snapshot JSON name, for evidence lines
	kind  kind
	dst   func(*sampler.GPU) *sampler.Metric
	// override: a later spelling wins over an earlier one (the enforced
	// power limit over the configured one).
	override bool
}

// qMetrics is qMetricList by path. The list is data: as a map literal
// it was ~4 KB of init code (go tool nm -size).
var qMetrics = func() map[string]qMetric {
	m := make(map[string]qMetric, len(qMetricList))
	for _, e := range qMetricList {
		m[e.path] = e.m
	}
	return m
}()

var qMetricList = [...]struct {
	path string
	m    qMetric
}{
	{"fb memory usage/total", qMetric{"mem_total", memory, func(g *sampler.GPU) *sampler.Metric { return &g.MemTotal }, false}},
	{"fb memory usage/used", qMetric{"mem_used", memory, func(g *sampler.GPU) *sampler.Metric { return &g.MemUsed }, false}},
	{"utilization/gpu", qMetric{"util", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Util }, false}},
	{"utilization/memory", qMetric{"mem_util", plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemUtil }, false}},
	{"utilization/encoder", qMetric{"enc_util", plain, func(g *sampler.GPU) *sampler.Metric { return &g.EncUtil }, false}},
	{"utilization/decoder", qMetric{"dec_util", plain, func(g *sampler.GPU) *sampler.Metric { return &g.DecUtil }, false}},
	{"temperature/gpu current temp", qMetric{"temp", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Temp }, false}},
	{"temperature/gpu slowdown temp", qMetric{"temp_slowdown", plain, func(g *sampler.GPU) *sampler.Metric { return &g.TempSlowdown }, false}},
	{"temperature/gpu max operating temp", qMetric{"temp_max_op", plain, func(g *sampler.GPU) *sampler.Metric { return &g.TempMaxOp }, false}},
	{"temperature/max operating temp", qMetric{"temp_max_op", plain, func(g *sampler.GPU) *sampler.Metric { return &g.TempMaxOp }, false}},
	{"temperature/gpu target temperature", qMetric{"temp_target", plain, func(g *sampler.GPU) *sampler.Metric { return &g.TempTarget }, false}},
	{"temperature/gpu shutdown temp", qMetric{"temp_shutdown", plain, func(g *sampler.GPU) *sampler.Metric { return &g.TempShutdown }, false}},
	{"power readings/power draw", qMetric{"power", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Power }, false}},
	{"gpu power readings/power draw", qMetric{"power", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Power }, false}},
	{"gpu power readings/instantaneous power draw", qMetric{"power", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Power }, true}},
	{"gpu power readings/average power draw", qMetric{"power", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Power }, false}},
	{"power readings/power limit", qMetric{"power_limit", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }, false}},
	{"power readings/enforced power limit", qMetric{"power_limit", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }, true}},
	{"gpu power readings/current power limit", qMetric{"power_limit", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }, false}},
	{"gpu power readings/enforced power limit", qMetric{"power_limit", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }, true}},
	{"clocks/sm", qMetric{"sm_clock", plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }, false}},
	{"clocks/memory", qMetric{"mem_clock", plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemClock }, false}},
	{"max clocks/sm", qMetric{"sm_clock_max", plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClockMax }, false}},
	{"max clocks/memory", qMetric{"mem_clock_max", plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemClockMax }, false}},
	{"pci/gpu link info/pcie generation/max", qMetric{"pcie_gen_max", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGenMax }, false}},
	{"pci/gpu link info/pcie generation/device max", qMetric{"pcie_gen_max", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGenMax }, true}},
	{"pci/gpu link info/pcie generation/current", qMetric{"pcie_gen", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGen }, false}},
	{"pci/gpu link info/pcie generation/device current", qMetric{"pcie_gen", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGen }, true}},
	{"pci/gpu link info/link width/max", qMetric{"pcie_width_max", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeWidthMax }, false}},
	{"pci/gpu link info/link width/current", qMetric{"pcie_width", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeWidth }, false}},
	{"pci/replays since reset", qMetric{"pcie_replays", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeReplays }, false}},
	{"pci/replay number changes", qMetric{"pcie_replays", plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeReplays }, false}},
	{"fan speed", qMetric{"fan", plain, func(g *sampler.GPU) *sampler.Metric { return &g.Fan }, false}},
	{"remapped rows/correctable error", qMetric{"remapped_rows", plain, func(g *sampler.GPU) *sampler.Metric { return &g.RemappedRows }, false}},
}

// clockReasonBits are the reasons -q lists under "Clocks Throttle
// Reasons" (drivers before 535) or "Clocks Event Reasons" (535 and later).
var clockReasonBits = map[string]uint64{
	"idle":                        sampler.ClockGpuIdle,
	"applications clocks setting": sampler.ClockAppSetting,
	"sw power cap":                sampler.ClockSwPowerCap,
	"hw slowdown":                 sampler.ClockHwSlowdown,
	"hw thermal slowdown":         sampler.ClockHwThermal,
	"hw power brake slowdown":     sampler.ClockHwPowerBrake,
	"sync boost":                  sampler.ClockSyncBoost,
	"sw thermal slowdown":         sampler.ClockSwThermal,
	"display clock setting":       sampler.ClockDisplaySetting,
}

// field reads one "key : value" of the current GPU block.
func (q *qState) field(path, val string, no int) {
	g := q.gpu
	if m, ok := qMetrics[path]; ok {
		if v, err := parseValue(strings.Trim(val, "[]"), m.kind, ""); err == nil && v.OK && (m.override || !m.dst(g).OK) {
			*m.dst(g) = v
			q.p.where(g.Index, m.field, no)
		}
		return
	}
	head, key, _ := strings.Cut(path, "/")
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		head, key = path[:i], path[i+1:]
	}
	switch {
	case path == "product name":
		g.Name = val
	case path == "gpu uuid":
		g.UUID = val
	case path == "pci/bus id":
		g.BusID = val
	case path == "product architecture":
		g.Arch = val
	case path == "persistence mode":
		g.Persistence = onOff(val)
	case path == "compute mode":
		g.ComputeMode = strings.ToLower(strings.ReplaceAll(val, " ", "_"))
	case path == "performance state":
		if v, err := parseValue(val, pstate, ""); err == nil {
			g.PState = v
		}
	case path == "fabric/state" || path == "fabric/status":
		if v := strings.TrimSpace(val); v != "" && !strings.EqualFold(v, "N/A") {
			if key == "state" {
				g.FabricState = v
			} else {
				g.FabricStatus = v
			}
			q.p.where(g.Index, "fabric_state", no)
		}
	case strings.HasPrefix(path, "fabric/health/"):
		readFabricHealth(g, key, val)
		q.p.where(g.Index, "fabric_health", no)
	case path == "gpu virtualization mode/virtualization mode":
		g.Virtualization = val
		q.p.where(g.Index, "virtualization", no)
	case key == "license status" && (head == "vgpu software licensed product" || head == "grid licensed product"):
		g.License = val // 470 and older print "GRID Licensed Product"
		q.p.where(g.Index, "license", no)
	case path == "mig mode/current":
		g.MIG = strings.EqualFold(val, "enabled")
		q.p.where(g.Index, "mig", no)
	case isReasonsBlock(head): // "HW Slowdown" is a heading of its own on some drivers
		if bit, ok := clockReasonBits[key]; ok {
			if active, ok := activeFlag(val); ok {
				g.ClockEvents.OK = true
				if active {
					g.ClockEvents.Mask |= bit
				}
				q.p.where(g.Index, "clock_events", no)
			}
		}
	case strings.HasPrefix(path, "ecc errors/volatile/"):
		q.ecc(key, strings.TrimPrefix(path, "ecc errors/volatile/"), val, no)
	case path == "remapped rows/pending":
		g.RemapPending = strings.EqualFold(val, "yes")
		q.p.where(g.Index, "remap_pending", no)
	case path == "remapped rows/remapping failure occurred":
		g.RemapFailed = strings.EqualFold(val, "yes")
		q.p.where(g.Index, "remap_failed", no)
	case path == "retired pages/pending page blacklist" || path == "retired pages/pending":
		if strings.EqualFold(val, "yes") {
			g.RemapPending = true // a retirement waiting for a reset: the same action
			q.p.where(g.Index, "remap_pending", no)
		}
	case path == "processes":
		q.p.procsListed = true // "Processes : None"
	case strings.HasPrefix(path, "processes/"):
		q.procField(key, val, no)
	}
}

// ecc sums the volatile uncorrectable / correctable counts: "SRAM
// Uncorrectable" (550+: "... Parity" and "... SEC-DED") and "DRAM
// Uncorrectable" (Ampere and newer), "Double Bit / Total" (older);
// "Aggregate" counts are history since manufacture.
func (q *qState) ecc(key, rel, val string, no int) {
	n, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return
	}
	add := func(m *sampler.Metric, field string) {
		*m = sampler.Some(m.Or(0) + n)
		q.p.where(q.gpu.Index, field, no)
	}
	switch {
	case strings.HasPrefix(key, "sram uncorrectable") || key == "dram uncorrectable" || rel == "double bit/total":
		// 550+ split SRAM into "Parity" and "SEC-DED"; any of them > 0 is the fact
		add(&q.gpu.ECCUncorrected, "ecc_uncorrected")
	case key == "sram correctable" || key == "dram correctable" || rel == "single bit/total":
		add(&q.gpu.ECCCorrected, "ecc_corrected")
	}
}

// procField reads the Processes block: each "Process ID" opens an entry.
func (q *qState) procField(key, val string, no int) {
	switch key {
	case "process id":
		q.endProc()
		pid, err := strconv.Atoi(val)
		if err != nil {
			return
		}
		q.proc = &sampler.GPUProc{PID: pid}
		q.p.where(q.gpu.Index, "procs", no)
	case "type":
		if q.proc != nil {
			q.proc.Type = val
		}
	case "name", "process name":
		if q.proc != nil && val != "" {
			q.proc.Host = &sampler.Proc{PID: q.proc.PID, Name: val}
		}
	case "used gpu memory", "used memory":
		if q.proc != nil {
			q.proc.MemUsed, _ = parseValue(val, memory, "")
		}
	}
}

// isReasonsBlock: the active-now reasons block (any nesting under it), not
// the "Clocks Event Reasons Counters" block of accumulated time.
func isReasonsBlock(head string) bool {
	top, _, _ := strings.Cut(head, "/")
	return top == "clocks throttle reasons" || top == "clocks event reasons"
}
