package sampler

// Keys of GPU.NA. The map is keyed by the JSON name of the field that is
// n/a (the recording format); these constants name each key by its Go
// field, so the NVML reader, the fake driver, the simulator and the screens
// cannot drift apart over a spelling. TestNAKeysAreJSONNames holds every
// one to its field's tag. NAProcUtil and NAProcsGraphics name readings with
// no field of their own: per-process utilisation and graphics processes.
const (
	NAArch           = "arch"
	NABusID          = "bus_id"
	NAClockEvents    = "clock_events"
	NAComputeMode    = "compute_mode"
	NACPUAffinity    = "cpu_affinity"
	NADecUtil        = "dec_util"
	NADRAMActive     = "dram_active"
	NAECCCorrected   = "ecc_corrected"
	NAECCUncorrected = "ecc_uncorrected"
	NAEnergy         = "energy"
	NAEncUtil        = "enc_util"
	NAFan            = "fan"
	NAGRActive       = "gr_active"
	NAMemClock       = "mem_clock"
	NAMemClockMax    = "mem_clock_max"
	NAMemReserved    = "mem_reserved"
	NAMemTemp        = "mem_temp"
	NAMemTotal       = "mem_total"
	NAMemUsed        = "mem_used"
	NAMemUtil        = "mem_util"
	NAMIG            = "mig"
	NAMIGDevices     = "mig_devices"
	NAName           = "name"
	NANUMANode       = "numa_node"
	NANVLinkRx       = "nvlink_rx"
	NANVLinkTx       = "nvlink_tx"
	NANVLinks        = "nvlinks"
	NAPCIeGen        = "pcie_gen"
	NAPCIeGenMax     = "pcie_gen_max"
	NAPCIeReplays    = "pcie_replays"
	NAPCIeRx         = "pcie_rx"
	NAPCIeTx         = "pcie_tx"
	NAPCIeWidth      = "pcie_width"
	NAPCIeWidthMax   = "pcie_width_max"
	NAPersistence    = "persistence"
	NAPower          = "power"
	NAPowerLimit     = "power_limit"
	NAProcUtil       = "proc_util"
	NAProcs          = "procs"
	NAProcsGraphics  = "procs_graphics"
	NAPState         = "pstate"
	NARemappedRows   = "remapped_rows"
	NARemappedCorr   = "remapped_correctable"
	NARemappedUncorr = "remapped_uncorrectable"
	NASMActive       = "sm_active"
	NASMClock        = "sm_clock"
	NASMClockMax     = "sm_clock_max"
	NASMOccupancy    = "sm_occupancy"
	NATemp           = "temp"
	NATempSlowdown   = "temp_slowdown"
	NATensorActive   = "tensor_active"
	NAUtil           = "util"
	NAUUID           = "uuid"
	NAVGPULicense    = "vgpu_license"
)

// ReasonNoGPM is the NA reason of the GPM fields on a GPU older than Hopper
// (GPM is Hopper and newer, nvml.h's GPM API); the NVML reader sets it.
const ReasonNoGPM = "needs Hopper or newer (GPM)"

// ArchHasGPM reports an architecture (GPU.Arch) with GPM metrics: Hopper
// and newer, per nvml.h's GPM API. An unknown architecture counts as older.
func ArchHasGPM(arch string) bool {
	switch arch {
	case "Hopper", "Blackwell", "Rubin":
		return true
	}
	return false
}
