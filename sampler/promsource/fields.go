package promsource

import (
	"maps"
	"slices"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// gpuAt is one GPU at one step while a snapshot is built: the snapshot's
// GPU and the readings that become other fields once all are in.
type gpuAt struct {
	g            sampler.GPU
	memFree      sampler.Metric // DCGM_FI_DEV_FB_FREE: total = used + free
	clockMask    sampler.Metric
	remapPending sampler.Metric
	xidLast      sampler.Metric // DCGM_FI_DEV_XID_ERRORS: the last Xid's code
	xidTotal     sampler.Metric // gpuscope_gpu_xid_errors_total
}

// gpuField is one snapshot field and the series that carry it, preferred
// first: dcgm-exporter's name, DCGM 4.x's renamed field where there is one,
// then gpuscope's own. A node exporting several (gpuscope serves both sets)
// gets the first.
type gpuField struct {
	names []string
	field func(g *gpuAt) *sampler.Metric
}

func f(names []string, field func(g *gpuAt) *sampler.Metric) gpuField { return gpuField{names, field} }

func n(names ...string) []string { return names }

var gpuFields = []gpuField{
	f(utilNames, func(g *gpuAt) *sampler.Metric { return &g.g.Util }),
	f(n("DCGM_FI_DEV_MEM_COPY_UTIL", "gpuscope_gpu_memory_utilization_ratio"), func(g *gpuAt) *sampler.Metric { return &g.g.MemUtil }),
	f(smActiveNames, func(g *gpuAt) *sampler.Metric { return &g.g.SMActive }),
	f(n("DCGM_FI_PROF_SM_OCCUPANCY", "gpuscope_gpu_sm_occupancy_ratio"), func(g *gpuAt) *sampler.Metric { return &g.g.SMOccupancy }),
	f(n("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_PROF_TENSOR_UTIL_RATIO", "gpuscope_gpu_tensor_active_ratio"), func(g *gpuAt) *sampler.Metric { return &g.g.TensorActive }),
	f(n("DCGM_FI_PROF_DRAM_ACTIVE", "gpuscope_gpu_dram_active_ratio"), func(g *gpuAt) *sampler.Metric { return &g.g.DRAMActive }),
	f(n("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gpuscope_gpu_graphics_engine_active_ratio"), func(g *gpuAt) *sampler.Metric { return &g.g.GRActive }),
	f(memUsedNames, func(g *gpuAt) *sampler.Metric { return &g.g.MemUsed }),
	f(memTotalNames, func(g *gpuAt) *sampler.Metric { return &g.g.MemTotal }),
	f(n("DCGM_FI_DEV_FB_FREE"), func(g *gpuAt) *sampler.Metric { return &g.memFree }),
	f(n("DCGM_FI_DEV_FB_RESERVED", "gpuscope_gpu_memory_reserved_bytes"), func(g *gpuAt) *sampler.Metric { return &g.g.MemReserved }),
	f(n("DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_GPU_TEMP_CELSIUS", "gpuscope_gpu_temperature_celsius"), func(g *gpuAt) *sampler.Metric { return &g.g.Temp }),
	f(n("DCGM_FI_DEV_MEMORY_TEMP", "gpuscope_gpu_memory_temperature_celsius"), func(g *gpuAt) *sampler.Metric { return &g.g.MemTemp }),
	f(n("DCGM_FI_DEV_SLOWDOWN_TEMP", "gpuscope_gpu_slowdown_temperature_celsius"), func(g *gpuAt) *sampler.Metric { return &g.g.TempSlowdown }),
	f(powerNames, func(g *gpuAt) *sampler.Metric { return &g.g.Power }),
	f(n("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "gpuscope_gpu_energy_joules_total"), func(g *gpuAt) *sampler.Metric { return &g.g.Energy }),
	f(n("DCGM_FI_DEV_POWER_MGMT_LIMIT", "gpuscope_gpu_power_limit_watts"), func(g *gpuAt) *sampler.Metric { return &g.g.PowerLimit }),
	f(n("DCGM_FI_DEV_SM_CLOCK", "gpuscope_gpu_sm_clock_hertz"), func(g *gpuAt) *sampler.Metric { return &g.g.SMClock }),
	f(n("DCGM_FI_DEV_MEM_CLOCK", "gpuscope_gpu_memory_clock_hertz"), func(g *gpuAt) *sampler.Metric { return &g.g.MemClock }),
	f(n("DCGM_FI_DEV_MAX_SM_CLOCK", "gpuscope_gpu_sm_clock_max_hertz"), func(g *gpuAt) *sampler.Metric { return &g.g.SMClockMax }),
	f(n("DCGM_FI_PROF_PCIE_RX_BYTES", "gpuscope_gpu_pcie_receive_bytes_per_second"), func(g *gpuAt) *sampler.Metric { return &g.g.PCIeRx }),
	f(n("DCGM_FI_PROF_PCIE_TX_BYTES", "gpuscope_gpu_pcie_transmit_bytes_per_second"), func(g *gpuAt) *sampler.Metric { return &g.g.PCIeTx }),
	f(n("DCGM_FI_PROF_NVLINK_RX_BYTES", "gpuscope_gpu_nvlink_receive_bytes_per_second"), func(g *gpuAt) *sampler.Metric { return &g.g.NVLinkRx }),
	f(n("DCGM_FI_PROF_NVLINK_TX_BYTES", "gpuscope_gpu_nvlink_transmit_bytes_per_second"), func(g *gpuAt) *sampler.Metric { return &g.g.NVLinkTx }),
	f(n("DCGM_FI_DEV_PCIE_LINK_GEN", "gpuscope_gpu_pcie_link_generation"), func(g *gpuAt) *sampler.Metric { return &g.g.PCIeGen }),
	f(n("DCGM_FI_DEV_PCIE_LINK_WIDTH", "gpuscope_gpu_pcie_link_width"), func(g *gpuAt) *sampler.Metric { return &g.g.PCIeWidth }),
	f(n("DCGM_FI_DEV_PCIE_MAX_LINK_GEN", "gpuscope_gpu_pcie_link_generation_max"), func(g *gpuAt) *sampler.Metric { return &g.g.PCIeGenMax }),
	f(n("DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH", "gpuscope_gpu_pcie_link_width_max"), func(g *gpuAt) *sampler.Metric { return &g.g.PCIeWidthMax }),
	f(n("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "gpuscope_gpu_pcie_replays_total"), func(g *gpuAt) *sampler.Metric { return &g.g.PCIeReplays }),
	f(n("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "gpuscope_gpu_ecc_uncorrected_errors_total"), func(g *gpuAt) *sampler.Metric { return &g.g.ECCUncorrected }),
	f(n("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "gpuscope_gpu_ecc_corrected_errors_total"), func(g *gpuAt) *sampler.Metric { return &g.g.ECCCorrected }),
	f(n("gpuscope_gpu_remapped_rows"), func(g *gpuAt) *sampler.Metric { return &g.g.RemappedRows }),
	f(n("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "gpuscope_gpu_remapped_rows_correctable"), func(g *gpuAt) *sampler.Metric { return &g.g.RemappedCorrectable }),
	f(n("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "gpuscope_gpu_remapped_rows_uncorrectable"), func(g *gpuAt) *sampler.Metric { return &g.g.RemappedUncorrectable }),
	f(n("DCGM_FI_DEV_ROW_REMAP_PENDING", "gpuscope_gpu_row_remap_pending"), func(g *gpuAt) *sampler.Metric { return &g.remapPending }),
	f(n("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"), func(g *gpuAt) *sampler.Metric { return &g.clockMask }),
	f(n("DCGM_FI_DEV_XID_ERRORS"), func(g *gpuAt) *sampler.Metric { return &g.xidLast }),
	f(n("gpuscope_gpu_xid_errors_total"), func(g *gpuAt) *sampler.Metric { return &g.xidTotal }),
}

const joulesPerKWh = 3.6e6

// scaleOf converts a series to the snapshot's unit (docs/metrics.md):
// dcgm-exporter's MiB to bytes and mJ to J, ratios to percent, hertz to MHz.
func scaleOf(name string) float64 {
	switch {
	case name == "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION":
		return 1e-3
	case strings.HasPrefix(name, "DCGM_FI_DEV_FB_"):
		return mib
	case strings.HasPrefix(name, "DCGM_FI_PROF_") && !strings.HasSuffix(name, "_BYTES"),
		strings.HasSuffix(name, "_RATIO"), strings.HasSuffix(name, "_ratio"):
		return 100
	case strings.HasSuffix(name, "_hertz"):
		return 1e-6
	}
	return 1
}

// rank is a series name's place in its field's list (lower wins).
func (f gpuField) rank(name string) int {
	for i, n := range f.names {
		if n == name {
			return i
		}
	}
	return len(f.names)
}

// seriesRole is what one series name is to the snapshots: a GPU field
// (gpuFields' index), a process or host field, or a fleet-level series.
// Both paths read the same tables: Source queries a field's names
// (History), Direct files a scraped series by its name (historyBuilder.series).
type seriesRole struct {
	gpuField int // -1: not a GPU field
	proc     *procField
	host     *hostField
}

// seriesRoles is every series name the scrape path keeps.
var seriesRoles = func() map[string]seriesRole {
	out := map[string]seriesRole{}
	for i, fl := range gpuFields {
		for _, name := range fl.names {
			out[name] = seriesRole{gpuField: i}
		}
	}
	for i := range procFields {
		out[procFields[i].name] = seriesRole{gpuField: -1, proc: &procFields[i]}
	}
	for i := range hostFields {
		out[hostFields[i].name] = seriesRole{gpuField: -1, host: &hostFields[i]}
	}
	for _, name := range []string{"gpuscope_node_info", "gpuscope_build_info", "gpuscope_finding", "gpuscope_finding_since_timestamp_seconds"} {
		out[name] = seriesRole{gpuField: -1}
	}
	return out
}()

// seriesNames numbers seriesRoles' names (sorted), so that a kept series
// holds its name in two bytes; nameIDs is the reverse.
var seriesNames, nameIDs = func() ([]string, map[string]uint16) {
	names := slices.Sorted(maps.Keys(seriesRoles))
	ids := make(map[string]uint16, len(names))
	for i, n := range names {
		ids[n] = uint16(i)
	}
	return names, ids
}()

// bestPresent reports whether the series name (seriesNames' index) is its
// field's first spelling among the names a scrape holds (present, by the
// same index): a gpuscope serve answers both name sets, and the ring keeps
// one (the one History's ranking would take).
func bestPresent(name uint16, present []bool) bool {
	r := seriesRoles[seriesNames[name]]
	if r.gpuField < 0 {
		return true
	}
	for _, n := range gpuFields[r.gpuField].names {
		if present[nameIDs[n]] {
			return n == seriesNames[name]
		}
	}
	return true
}

func isUtil(name string) bool {
	for _, n := range utilNames {
		if n == name {
			return true
		}
	}
	return false
}

// series files one stream by its name's role.
func (h *historyBuilder) series(ss *sampleStream) {
	name := ss.seriesName()
	r, ok := seriesRoles[name]
	switch {
	case !ok:
	case r.gpuField >= 0:
		h.gpuSeries(r.gpuField, ss)
	case r.proc != nil:
		h.procSeries(*r.proc, ss)
	case r.host != nil:
		h.hostSeries(*r.host, ss)
	case name == "gpuscope_node_info":
		h.info[keyOf(ss.Metric)] = ss.Metric
	}
}
