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

func metricCol(k kind, f func(*sampler.GPU) *sampler.Metric) csvColumn {
	return csvColumn{role: roleMetric, kind: k, field: f}
}

func weakCol(k kind, f func(*sampler.GPU) *sampler.Metric) csvColumn {
	c := metricCol(k, f)
	c.weak = true
	return c
}

// csvColumns maps `nvidia-smi --help-query-gpu` names (and the longer names
// the header prints for some aliases, e.g. clocks.sm → clocks.current.sm)
// to what they feed. Lower case, without the "[unit]".
var csvColumns = func() map[string]csvColumn {
	m := map[string]csvColumn{
		"timestamp":        {role: roleTime},
		"index":            {role: roleIndex},
		"uuid":             {role: roleUUID},
		"gpu_uuid":         {role: roleUUID},
		"name":             {role: roleName},
		"gpu_name":         {role: roleName},
		"pci.bus_id":       {role: roleBus},
		"gpu_bus_id":       {role: roleBus},
		"driver_version":   {role: roleDriver},
		"memory.free":      {role: roleFree, kind: memory},
		"persistence_mode": {role: rolePersistence},
		"compute_mode":     {role: roleComputeMode},
		"mig.mode.current": {role: roleMIG},

		"utilization.gpu":      metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.Util }),
		"utilization.memory":   metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemUtil }),
		"utilization.encoder":  metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.EncUtil }),
		"utilization.decoder":  metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.DecUtil }),
		"memory.used":          metricCol(memory, func(g *sampler.GPU) *sampler.Metric { return &g.MemUsed }),
		"memory.total":         metricCol(memory, func(g *sampler.GPU) *sampler.Metric { return &g.MemTotal }),
		"temperature.gpu":      metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.Temp }),
		"power.draw":           metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.Power }),
		"power.draw.average":   metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.Power }),
		"power.draw.instant":   weakCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.Power }),
		"enforced.power.limit": metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }),
		"power.limit":          weakCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.PowerLimit }),
		"fan.speed":            metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.Fan }),
		"pstate":               metricCol(pstate, func(g *sampler.GPU) *sampler.Metric { return &g.PState }),

		"clocks.sm":                             metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }),
		"clocks.current.sm":                     metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }),
		"clocks.gr":                             weakCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }),
		"clocks.current.graphics":               weakCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClock }),
		"clocks.mem":                            metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemClock }),
		"clocks.current.memory":                 metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemClock }),
		"clocks.max.sm":                         metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClockMax }),
		"clocks.max.gr":                         weakCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClockMax }),
		"clocks.max.graphics":                   weakCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.SMClockMax }),
		"clocks.max.mem":                        metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemClockMax }),
		"clocks.max.memory":                     metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.MemClockMax }),
		"pcie.link.gen.current":                 metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGen }),
		"pcie.link.gen.gpucurrent":              weakCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGen }),
		"pcie.link.gen.max":                     metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGenMax }),
		"pcie.link.gen.gpumax":                  weakCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeGenMax }),
		"pcie.link.width.current":               metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeWidth }),
		"pcie.link.width.max":                   metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.PCIeWidthMax }),
		"ecc.errors.corrected.volatile.total":   metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.ECCCorrected }),
		"ecc.errors.uncorrected.volatile.total": metricCol(plain, func(g *sampler.GPU) *sampler.Metric { return &g.ECCUncorrected }),
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
