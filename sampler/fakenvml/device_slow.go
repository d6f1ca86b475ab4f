package fakenvml

import (
	"strconv"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/nvmlarch"
)

// Slow-tier identity and health answers.

func (d *device) GetName() (string, nvml.Return) {
	g, r := d.read(mGetName)
	if r != nvml.SUCCESS {
		return "", r
	}
	if g.Name != "" {
		return g.Name, nvml.SUCCESS
	}
	return d.f.id.name, nvml.SUCCESS
}

func (d *device) GetUUID() (string, nvml.Return) {
	g, r := d.read(mGetUUID)
	if r != nvml.SUCCESS {
		return "", r
	}
	if g.UUID != "" {
		return g.UUID, nvml.SUCCESS
	}
	return UUID(d.idx), nvml.SUCCESS
}

func (d *device) GetPciInfo() (nvml.PciInfo, nvml.Return) {
	if _, r := d.read(mGetPciInfo); r != nvml.SUCCESS {
		return nvml.PciInfo{}, r
	}
	p := pciInfo(d.f.busID(d.idx))
	p.PciDeviceId = d.f.id.pciDeviceID
	return p, nvml.SUCCESS
}

// pciInfo fills the bus id strings the way NVML does (NUL-terminated).
func pciInfo(bus string) nvml.PciInfo {
	var p nvml.PciInfo
	for i := 0; i < len(bus) && i < len(p.BusId)-1; i++ {
		p.BusId[i] = int8(bus[i])
	}
	legacy := bus
	if len(legacy) > 12 { // legacy form has a 4-digit domain
		legacy = legacy[4:]
	}
	for i := 0; i < len(legacy) && i < len(p.BusIdLegacy)-1; i++ {
		p.BusIdLegacy[i] = int8(legacy[i])
	}
	return p
}

func (d *device) GetArchitecture() (nvml.DeviceArchitecture, nvml.Return) {
	g, r := d.read(mGetArchitecture)
	if r != nvml.SUCCESS {
		return 0, r
	}
	if a, ok := nvmlarch.Parse(g.Arch); ok {
		return a, nvml.SUCCESS
	}
	return d.f.id.arch, nvml.SUCCESS
}

func (d *device) GetMaxClockInfo(clock nvml.ClockType) (uint32, nvml.Return) {
	switch clock {
	case nvml.CLOCK_SM:
		return d.u32(mGetMaxClockInfo, "sm_clock_max", func(g *sampler.GPU) sampler.Metric { return g.SMClockMax }, 1)
	case nvml.CLOCK_MEM:
		return d.u32(mGetMaxClockInfo, "mem_clock_max", func(g *sampler.GPU) sampler.Metric { return g.MemClockMax }, 1)
	}
	d.f.enter(d.idx, mGetMaxClockInfo)
	return 0, nvml.ERROR_NOT_SUPPORTED
}

func (d *device) GetTemperatureThreshold(t nvml.TemperatureThresholds) (uint32, nvml.Return) {
	if t != nvml.TEMPERATURE_THRESHOLD_SLOWDOWN {
		d.f.enter(d.idx, mGetTemperatureThreshold)
		return 0, nvml.ERROR_NOT_SUPPORTED
	}
	return d.u32(mGetTemperatureThreshold, "temp_slowdown", func(g *sampler.GPU) sampler.Metric { return g.TempSlowdown }, 1)
}

func (d *device) GetMaxPcieLinkGeneration() (int, nvml.Return) {
	v, r := d.u32(mGetMaxPcieLinkGeneration, "pcie_gen_max", func(g *sampler.GPU) sampler.Metric { return g.PCIeGenMax }, 1)
	return int(v), r
}

func (d *device) GetMaxPcieLinkWidth() (int, nvml.Return) {
	v, r := d.u32(mGetMaxPcieLinkWidth, "pcie_width_max", func(g *sampler.GPU) sampler.Metric { return g.PCIeWidthMax }, 1)
	return int(v), r
}

func (d *device) GetPcieReplayCounter() (int, nvml.Return) {
	v, r := d.u32(mGetPcieReplayCounter, "pcie_replays", func(g *sampler.GPU) sampler.Metric { return g.PCIeReplays }, 1)
	return int(v), r
}

func (d *device) GetTotalEccErrors(kind nvml.MemoryErrorType, counter nvml.EccCounterType) (uint64, nvml.Return) {
	g, r := d.read(mGetTotalEccErrors)
	if r != nvml.SUCCESS {
		return 0, r
	}
	m, field := g.ECCCorrected, "ecc_corrected"
	if kind == nvml.MEMORY_ERROR_TYPE_UNCORRECTED {
		m, field = g.ECCUncorrected, "ecc_uncorrected"
	}
	if counter != nvml.VOLATILE_ECC || !m.OK {
		return 0, naReturn(g, field)
	}
	return uint64(m.V), nvml.SUCCESS
}

// GetRemappedRows answers the truth's split; a truth without one (older
// tests) has all its rows correctable.
func (d *device) GetRemappedRows() (int, int, bool, bool, nvml.Return) {
	g, r := d.read(mGetRemappedRows)
	if r != nvml.SUCCESS {
		return 0, 0, false, false, r
	}
	if !g.RemappedRows.OK {
		return 0, 0, false, false, naReturn(g, "remapped_rows")
	}
	corr, unc := int(g.RemappedRows.V), 0
	if g.RemappedCorrectable.OK && g.RemappedUncorrectable.OK {
		corr, unc = int(g.RemappedCorrectable.V), int(g.RemappedUncorrectable.V)
	}
	return corr, unc, g.RemapPending, g.RemapFailed, nvml.SUCCESS
}

func (d *device) GetPersistenceMode() (nvml.EnableState, nvml.Return) {
	g, r := d.read(mGetPersistenceMode)
	if r != nvml.SUCCESS {
		return 0, r
	}
	switch g.Persistence {
	case "on":
		return nvml.FEATURE_ENABLED, nvml.SUCCESS
	case "off":
		return nvml.FEATURE_DISABLED, nvml.SUCCESS
	}
	return 0, naReturn(g, "persistence")
}

func (d *device) GetComputeMode() (nvml.ComputeMode, nvml.Return) {
	g, r := d.read(mGetComputeMode)
	if r != nvml.SUCCESS {
		return 0, r
	}
	switch g.ComputeMode {
	case "default":
		return nvml.COMPUTEMODE_DEFAULT, nvml.SUCCESS
	case "exclusive_thread":
		return nvml.COMPUTEMODE_EXCLUSIVE_THREAD, nvml.SUCCESS
	case "prohibited":
		return nvml.COMPUTEMODE_PROHIBITED, nvml.SUCCESS
	case "exclusive_process":
		return nvml.COMPUTEMODE_EXCLUSIVE_PROCESS, nvml.SUCCESS
	}
	return 0, naReturn(g, "compute_mode")
}

func (d *device) GetMigMode() (int, int, nvml.Return) {
	g, r := d.read(mGetMigMode)
	if r != nvml.SUCCESS {
		return 0, 0, r
	}
	if _, na := g.NA[sampler.NAMIG]; na {
		return 0, 0, naReturn(g, "mig")
	}
	if g.MIG {
		return nvml.DEVICE_MIG_ENABLE, nvml.DEVICE_MIG_ENABLE, nvml.SUCCESS
	}
	return nvml.DEVICE_MIG_DISABLE, nvml.DEVICE_MIG_DISABLE, nvml.SUCCESS
}

// GetCpuAffinity turns the truth's "0-55,112-167" into NVML's bitmask words
// (64 CPUs per word on 64-bit Linux), sized as go-nvml sizes them.
func (d *device) GetCpuAffinity(numCPUs int) ([]uint, nvml.Return) {
	g, r := d.read(mGetCpuAffinity)
	if r != nvml.SUCCESS {
		return nil, r
	}
	if g.CPUAffinity == "" {
		return nil, naReturn(g, "cpu_affinity")
	}
	words := make([]uint, max(numCPUs-1, 0)/64+1)
	for part := range strings.SplitSeq(g.CPUAffinity, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil {
			return nil, nvml.ERROR_UNKNOWN
		}
		for c := a; c <= b && c/64 < len(words); c++ {
			words[c/64] |= 1 << (c % 64)
		}
	}
	return words, nvml.SUCCESS
}

func (d *device) GetNumaNodeId() (int, nvml.Return) {
	v, r := d.u32(mGetNumaNodeId, "numa_node", func(g *sampler.GPU) sampler.Metric { return g.NUMANode }, 1)
	return int(v), r
}

// GetTopologyCommonAncestor answers from Config.Topology's PCIe labels.
func (d *device) GetTopologyCommonAncestor(other nvml.Device) (nvml.GpuTopologyLevel, nvml.Return) {
	if r := d.f.enter(d.idx, mGetTopologyCommonAncestor); r != nvml.SUCCESS {
		return 0, r
	}
	o, ok := other.(*device)
	if !ok || o.f != d.f {
		return 0, nvml.ERROR_INVALID_ARGUMENT
	}
	i, j := d.idx, o.idx
	if t := d.f.cfg.Topology; t != nil && i < len(t.Links) && j < len(t.Links[i]) {
		switch t.Links[i][j] {
		case "PIX":
			return nvml.TOPOLOGY_SINGLE, nvml.SUCCESS
		case "PXB":
			return nvml.TOPOLOGY_MULTIPLE, nvml.SUCCESS
		case "PHB":
			return nvml.TOPOLOGY_HOSTBRIDGE, nvml.SUCCESS
		case "NODE":
			return nvml.TOPOLOGY_NODE, nvml.SUCCESS
		case "SYS":
			return nvml.TOPOLOGY_SYSTEM, nvml.SUCCESS
		}
	}
	if half := max(len(d.f.devs)/2, 1); i/half == j/half {
		return nvml.TOPOLOGY_NODE, nvml.SUCCESS
	}
	return nvml.TOPOLOGY_SYSTEM, nvml.SUCCESS
}
