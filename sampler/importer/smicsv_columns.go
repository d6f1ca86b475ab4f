package importer

import (
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// role says what an nvidia-smi --query-gpu column feeds.
type role int

const (
	roleMetric      role = iota // a GPU Metric
	roleTime                    // timestamp
	roleIndex                   // index
	roleUUID                    // uuid
	roleName                    // name
	roleBus                     // pci.bus_id
	roleDriver                  // driver_version
	roleFree                    // memory.free: total = used + free when total is missing
	roleMask                    // clocks_event_reasons.active hex mask
	roleReason                  // one clocks_event_reasons.* "Active"/"Not Active"
	rolePersistence             // persistence_mode Enabled/Disabled
	roleComputeMode             // compute_mode
	roleMIG                     // mig.mode.current
	roleIgnore                  // known, not shown by gpuscope
)

type csvColumn struct {
	role  role
	kind  kind
	field func(*sampler.GPU) *sampler.Metric
	// weak columns fill a field only when a stronger spelling did not
	// (power.limit yields to enforced.power.limit).
	weak bool
	bit  uint64 // roleReason
}

// csvColumnList is csvColumns' named columns as data: a map literal of
// them was 8.6 KB of code run once (go tool nm -size), this list is static.
var csvColumnList = [...]struct {
	name string
	c    csvColumn
}{
	{"timestamp", csvColumn{role: roleTime}},
	{"index", csvColumn{role: roleIndex}},
	{"uuid", csvColumn{role: roleUUID}},
	{"gpu_uuid", csvColumn{role: roleUUID}},
	{"name", csvColumn{role: roleName}},
	{"gpu_name", csvColumn{role: roleName}},
	{"pci.bus_id", csvColumn{role: roleBus}},
	{"gpu_bus_id", csvColumn{role: roleBus}},
	{"driver_version", csvColumn{role: roleDriver}},
	{"memory.free", csvColumn{role: roleFree, kind: memory}},
	{"persistence_mode", csvColumn{role: rolePersistence}},
	{"compute_mode", csvColumn{role: roleComputeMode}},
	{"mig.mode.current", csvColumn{role: roleMIG}},

	{"utilization.gpu", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.Util }}},
	{"utilization.memory", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.MemUtil }}},
	{"utilization.encoder", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.EncUtil }}},
	{"utilization.decoder", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.DecUtil }}},
	{"memory.used", csvColumn{kind: memory, field: func(g *sampler.GPU) *sampler.Metric { return &g.MemUsed }}},
	{"memory.total", csvColumn{kind: memory, field: func(g *sampler.GPU) *sampler.Metric { return &g.MemTotal }}},
	{"temperature.gpu", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.Temp }}},
	{"power.draw", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.Power }}},
	{"power.draw.average", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.Power }}},
	{"power.draw.instant", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.Power }, weak: true}},
	{"enforced.power.limit", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }}},
	{"power.limit", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }, weak: true}},
	{"fan.speed", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.Fan }}},
	{"pstate", csvColumn{kind: pstate, field: func(g *sampler.GPU) *sampler.Metric { return &g.PState }}},

	{"clocks.sm", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }}},
	{"clocks.current.sm", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }}},
	{"clocks.gr", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }, weak: true}},
	{"clocks.current.graphics", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }, weak: true}},
	{"clocks.mem", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.MemClock }}},
	{"clocks.current.memory", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.MemClock }}},
	{"clocks.max.sm", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.SMClockMax }}},
	{"clocks.max.gr", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.SMClockMax }, weak: true}},
	{"clocks.max.graphics", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.SMClockMax }, weak: true}},
	{"clocks.max.mem", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.MemClockMax }}},
	{"clocks.max.memory", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.MemClockMax }}},
	{"pcie.link.gen.current", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGen }}},
	{"pcie.link.gen.gpucurrent", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGen }, weak: true}},
	{"pcie.link.gen.max", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGenMax }}},
	{"pcie.link.gen.gpumax", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGenMax }, weak: true}},
	{"pcie.link.width.current", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.PCIeWidth }}},
	{"pcie.link.width.max", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.PCIeWidthMax }}},
	{"ecc.errors.corrected.volatile.total", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.ECCCorrected }}},
	{"ecc.errors.uncorrected.volatile.total", csvColumn{kind: plain, field: func(g *sampler.GPU) *sampler.Metric { return &g.ECCUncorrected }}},
}

// csvColumns maps `nvidia-smi --help-query-gpu` names (and the longer names
// the header prints for some aliases, e.g. clocks.sm → clocks.current.sm)
// to what they feed. Lower case, without the "[unit]".
var csvColumns = func() map[string]csvColumn {
	m := make(map[string]csvColumn, len(csvColumnList)+64)
	for _, e := range csvColumnList {
		m[e.name] = e.c
	}
	for _, k := range []string{"count", "serial", "vbios_version", "display_mode", "display_active", "accounting.mode",
		"memory.reserved", "temperature.memory", "temperature.gpu.tlimit", "power.management", "power.default_limit",
		"power.min_limit", "power.max_limit", "mig.mode.pending", "persistence_mode", "driver_model.current",
		"clocks_event_reasons.supported", "clocks_throttle_reasons.supported", "pci.domain", "pci.bus", "pci.device",
		"pci.device_id", "pci.sub_device_id", "inforom.img", "gom.current", "clocks.video", "clocks.current.video"} {
		if _, ok := m[k]; !ok {
			m[k] = csvColumn{role: roleIgnore}
		}
	}
	// Clock event reasons: the R535+ spelling and the older "throttle" one.
	reasons := map[string]uint64{
		"gpu_idle": sampler.ClockGpuIdle, "applications_clocks_setting": sampler.ClockAppSetting,
		"sw_power_cap": sampler.ClockSwPowerCap, "hw_slowdown": sampler.ClockHwSlowdown,
		"hw_thermal_slowdown": sampler.ClockHwThermal, "hw_power_brake_slowdown": sampler.ClockHwPowerBrake,
		"sw_thermal_slowdown": sampler.ClockSwThermal, "sync_boost": sampler.ClockSyncBoost,
		"display_clock_setting": sampler.ClockDisplaySetting,
	}
	for _, prefix := range []string{"clocks_event_reasons.", "clocks_throttle_reasons."} {
		m[prefix+"active"] = csvColumn{role: roleMask, kind: hexMask}
		for name, bit := range reasons {
			m[prefix+name] = csvColumn{role: roleReason, bit: bit}
		}
	}
	return m
}()

// splitHeaderUnit splits "memory.used [MiB]" into "memory.used" and "MiB".
func splitHeaderUnit(cell string) (name, unit string) {
	cell = strings.TrimSpace(cell)
	if i := strings.IndexByte(cell, '['); i >= 0 && strings.HasSuffix(cell, "]") {
		return strings.ToLower(strings.TrimSpace(cell[:i])), strings.TrimSpace(cell[i+1 : len(cell)-1])
	}
	return strings.ToLower(cell), ""
}

func splitCSV(line string) []string {
	cells := strings.Split(line, ",")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// headerlessLayout recognises a header-less row of the one layout Detect
// accepts without a header: index, utilization.gpu, memory.used, memory.total.
func headerlessLayout(cells []string) bool {
	if len(cells) != 4 {
		return false
	}
	if _, u := splitNumber(cells[0]); u != "" || cells[0] == "" {
		return false
	}
	for i, c := range cells[1:] {
		if isNA(c) {
			continue
		}
		num, unit := splitNumber(c)
		if num == "" {
			return false
		}
		switch {
		case i == 0 && unit != "" && unit != "%":
			return false
		case i > 0 && unit != "":
			if _, ok := memScale(unit); !ok {
				return false
			}
		}
	}
	return true
}
