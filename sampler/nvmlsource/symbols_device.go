package nvmlsource

import "github.com/NVIDIA/go-nvml/pkg/nvml"

// guardDev is a GPU or MIG device whose every query the reader makes is
// first checked against the driver's exported symbols (symbols.go); the
// methods follow Device in nvml.go one for one.
type guardDev struct {
	nvml.Device
	syms *symbols
}

var _ Device = (*guardDev)(nil)

// GetCurrentClocksEventReasons falls back to the name the same bitmask had
// before R535 (nvmlDeviceGetCurrentClocksThrottleReasons).
func (d *guardDev) GetCurrentClocksEventReasons() (uint64, nvml.Return) {
	switch {
	case d.syms.has("nvmlDeviceGetCurrentClocksEventReasons"):
		return d.Device.GetCurrentClocksEventReasons()
	case d.syms.has("nvmlDeviceGetCurrentClocksThrottleReasons"):
		return d.Device.GetCurrentClocksThrottleReasons()
	}
	return 0, nvml.ERROR_FUNCTION_NOT_FOUND
}

func (d *guardDev) GetMigDeviceHandleByIndex(i int) (nvml.Device, nvml.Return) {
	if !d.syms.has("nvmlDeviceGetMigDeviceHandleByIndex") {
		return nil, nvml.ERROR_FUNCTION_NOT_FOUND
	}
	md, r := d.Device.GetMigDeviceHandleByIndex(i)
	if md == nil {
		return nil, r
	}
	return &guardDev{Device: md, syms: d.syms}, r
}

func (d *guardDev) GetDecoderUtilization() (uint32, uint32, nvml.Return) {
	if !d.syms.has("nvmlDeviceGetDecoderUtilization") {
		return 0, 0, nvml.ERROR_FUNCTION_NOT_FOUND
	}
	return d.Device.GetDecoderUtilization()
}

func (d *guardDev) GetEncoderUtilization() (uint32, uint32, nvml.Return) {
	if !d.syms.has("nvmlDeviceGetEncoderUtilization") {
		return 0, 0, nvml.ERROR_FUNCTION_NOT_FOUND
	}
	return d.Device.GetEncoderUtilization()
}

func (d *guardDev) GetMigMode() (int, int, nvml.Return) {
	if !d.syms.has("nvmlDeviceGetMigMode") {
		return 0, 0, nvml.ERROR_FUNCTION_NOT_FOUND
	}
	return d.Device.GetMigMode()
}

func (d *guardDev) GetRemappedRows() (int, int, bool, bool, nvml.Return) {
	if !d.syms.has("nvmlDeviceGetRemappedRows") {
		return 0, 0, false, false, nvml.ERROR_FUNCTION_NOT_FOUND
	}
	return d.Device.GetRemappedRows()
}

func (d *guardDev) GetArchitecture() (nvml.DeviceArchitecture, nvml.Return) {
	return guard(d.syms, d.Device.GetArchitecture, "nvmlDeviceGetArchitecture")
}

func (d *guardDev) GetAttributes() (nvml.DeviceAttributes, nvml.Return) {
	return guard(d.syms, d.Device.GetAttributes, "nvmlDeviceGetAttributes")
}

func (d *guardDev) GetClockInfo(a0 nvml.ClockType) (uint32, nvml.Return) {
	return guard(d.syms, func() (uint32, nvml.Return) { return d.Device.GetClockInfo(a0) }, "nvmlDeviceGetClockInfo")
}

func (d *guardDev) GetComputeInstanceId() (int, nvml.Return) {
	return guard(d.syms, d.Device.GetComputeInstanceId, "nvmlDeviceGetComputeInstanceId")
}

func (d *guardDev) GetComputeMode() (nvml.ComputeMode, nvml.Return) {
	return guard(d.syms, d.Device.GetComputeMode, "nvmlDeviceGetComputeMode")
}

func (d *guardDev) GetComputeRunningProcesses() ([]nvml.ProcessInfo, nvml.Return) {
	return guard(d.syms, d.Device.GetComputeRunningProcesses, "nvmlDeviceGetComputeRunningProcesses")
}

func (d *guardDev) GetCpuAffinity(a0 int) ([]uint, nvml.Return) {
	return guard(d.syms, func() ([]uint, nvml.Return) { return d.Device.GetCpuAffinity(a0) }, "nvmlDeviceGetCpuAffinity")
}

func (d *guardDev) GetCurrPcieLinkGeneration() (int, nvml.Return) {
	return guard(d.syms, d.Device.GetCurrPcieLinkGeneration, "nvmlDeviceGetCurrPcieLinkGeneration")
}

func (d *guardDev) GetCurrPcieLinkWidth() (int, nvml.Return) {
	return guard(d.syms, d.Device.GetCurrPcieLinkWidth, "nvmlDeviceGetCurrPcieLinkWidth")
}

func (d *guardDev) GetEnforcedPowerLimit() (uint32, nvml.Return) {
	return guard(d.syms, d.Device.GetEnforcedPowerLimit, "nvmlDeviceGetEnforcedPowerLimit")
}

func (d *guardDev) GetFieldValues(v []nvml.FieldValue) nvml.Return {
	return guardRet(d.syms, func() nvml.Return { return d.Device.GetFieldValues(v) }, "nvmlDeviceGetFieldValues")
}

func (d *guardDev) GetGridLicensableFeatures() (nvml.GridLicensableFeatures, nvml.Return) {
	return guard(d.syms, d.Device.GetGridLicensableFeatures, "nvmlDeviceGetGridLicensableFeatures")
}

func (d *guardDev) GetFanSpeed() (uint32, nvml.Return) {
	return guard(d.syms, d.Device.GetFanSpeed, "nvmlDeviceGetFanSpeed")
}

func (d *guardDev) GetGpuInstanceId() (int, nvml.Return) {
	return guard(d.syms, d.Device.GetGpuInstanceId, "nvmlDeviceGetGpuInstanceId")
}

func (d *guardDev) GetGraphicsRunningProcesses() ([]nvml.ProcessInfo, nvml.Return) {
	return guard(d.syms, d.Device.GetGraphicsRunningProcesses, "nvmlDeviceGetGraphicsRunningProcesses")
}

func (d *guardDev) GetMaxClockInfo(a0 nvml.ClockType) (uint32, nvml.Return) {
	return guard(d.syms, func() (uint32, nvml.Return) { return d.Device.GetMaxClockInfo(a0) }, "nvmlDeviceGetMaxClockInfo")
}

func (d *guardDev) GetMaxMigDeviceCount() (int, nvml.Return) {
	return guard(d.syms, d.Device.GetMaxMigDeviceCount, "nvmlDeviceGetMaxMigDeviceCount")
}

func (d *guardDev) GetMaxPcieLinkGeneration() (int, nvml.Return) {
	return guard(d.syms, d.Device.GetMaxPcieLinkGeneration, "nvmlDeviceGetMaxPcieLinkGeneration")
}

func (d *guardDev) GetMaxPcieLinkWidth() (int, nvml.Return) {
	return guard(d.syms, d.Device.GetMaxPcieLinkWidth, "nvmlDeviceGetMaxPcieLinkWidth")
}

func (d *guardDev) GetMemoryInfo() (nvml.Memory, nvml.Return) {
	return guard(d.syms, d.Device.GetMemoryInfo, "nvmlDeviceGetMemoryInfo")
}

func (d *guardDev) GetMemoryInfo_v2() (nvml.Memory_v2, nvml.Return) {
	return guard(d.syms, d.Device.GetMemoryInfo_v2, "nvmlDeviceGetMemoryInfo_v2")
}

func (d *guardDev) GetName() (string, nvml.Return) {
	return guard(d.syms, d.Device.GetName, "nvmlDeviceGetName")
}

func (d *guardDev) GetNumaNodeId() (int, nvml.Return) {
	return guard(d.syms, d.Device.GetNumaNodeId, "nvmlDeviceGetNumaNodeId")
}

func (d *guardDev) GetNvLinkErrorCounter(a0 int, a1 nvml.NvLinkErrorCounter) (uint64, nvml.Return) {
	return guard(d.syms, func() (uint64, nvml.Return) { return d.Device.GetNvLinkErrorCounter(a0, a1) }, "nvmlDeviceGetNvLinkErrorCounter")
}

func (d *guardDev) GetNvLinkRemoteDeviceType(a0 int) (nvml.IntNvLinkDeviceType, nvml.Return) {
	return guard(d.syms, func() (nvml.IntNvLinkDeviceType, nvml.Return) { return d.Device.GetNvLinkRemoteDeviceType(a0) }, "nvmlDeviceGetNvLinkRemoteDeviceType")
}

func (d *guardDev) GetNvLinkRemotePciInfo(a0 int) (nvml.PciInfo, nvml.Return) {
	return guard(d.syms, func() (nvml.PciInfo, nvml.Return) { return d.Device.GetNvLinkRemotePciInfo(a0) }, "nvmlDeviceGetNvLinkRemotePciInfo")
}

func (d *guardDev) GetNvLinkState(a0 int) (nvml.EnableState, nvml.Return) {
	return guard(d.syms, func() (nvml.EnableState, nvml.Return) { return d.Device.GetNvLinkState(a0) }, "nvmlDeviceGetNvLinkState")
}

func (d *guardDev) GetPciInfo() (nvml.PciInfo, nvml.Return) {
	return guard(d.syms, d.Device.GetPciInfo, "nvmlDeviceGetPciInfo")
}

func (d *guardDev) GetPcieReplayCounter() (int, nvml.Return) {
	return guard(d.syms, d.Device.GetPcieReplayCounter, "nvmlDeviceGetPcieReplayCounter")
}

func (d *guardDev) GetPcieThroughput(a0 nvml.PcieUtilCounter) (uint32, nvml.Return) {
	return guard(d.syms, func() (uint32, nvml.Return) { return d.Device.GetPcieThroughput(a0) }, "nvmlDeviceGetPcieThroughput")
}

func (d *guardDev) GetPerformanceState() (nvml.Pstates, nvml.Return) {
	return guard(d.syms, d.Device.GetPerformanceState, "nvmlDeviceGetPerformanceState")
}

func (d *guardDev) GetPersistenceMode() (nvml.EnableState, nvml.Return) {
	return guard(d.syms, d.Device.GetPersistenceMode, "nvmlDeviceGetPersistenceMode")
}

func (d *guardDev) GetPowerUsage() (uint32, nvml.Return) {
	return guard(d.syms, d.Device.GetPowerUsage, "nvmlDeviceGetPowerUsage")
}

func (d *guardDev) GetProcessUtilization(a0 uint64) ([]nvml.ProcessUtilizationSample, nvml.Return) {
	return guard(d.syms, func() ([]nvml.ProcessUtilizationSample, nvml.Return) { return d.Device.GetProcessUtilization(a0) }, "nvmlDeviceGetProcessUtilization")
}

func (d *guardDev) GetTemperature(a0 nvml.TemperatureSensors) (uint32, nvml.Return) {
	return guard(d.syms, func() (uint32, nvml.Return) { return d.Device.GetTemperature(a0) }, "nvmlDeviceGetTemperature")
}

func (d *guardDev) GetTemperatureThreshold(a0 nvml.TemperatureThresholds) (uint32, nvml.Return) {
	return guard(d.syms, func() (uint32, nvml.Return) { return d.Device.GetTemperatureThreshold(a0) }, "nvmlDeviceGetTemperatureThreshold")
}

func (d *guardDev) GetTopologyCommonAncestor(a0 nvml.Device) (nvml.GpuTopologyLevel, nvml.Return) {
	return guard(d.syms, func() (nvml.GpuTopologyLevel, nvml.Return) { return d.Device.GetTopologyCommonAncestor(a0) }, "nvmlDeviceGetTopologyCommonAncestor")
}

func (d *guardDev) GetTotalEnergyConsumption() (uint64, nvml.Return) {
	return guard(d.syms, d.Device.GetTotalEnergyConsumption, "nvmlDeviceGetTotalEnergyConsumption")
}

func (d *guardDev) GetTotalEccErrors(a0 nvml.MemoryErrorType, a1 nvml.EccCounterType) (uint64, nvml.Return) {
	return guard(d.syms, func() (uint64, nvml.Return) { return d.Device.GetTotalEccErrors(a0, a1) }, "nvmlDeviceGetTotalEccErrors")
}

func (d *guardDev) GetUUID() (string, nvml.Return) {
	return guard(d.syms, d.Device.GetUUID, "nvmlDeviceGetUUID")
}

func (d *guardDev) GetUtilizationRates() (nvml.Utilization, nvml.Return) {
	return guard(d.syms, d.Device.GetUtilizationRates, "nvmlDeviceGetUtilizationRates")
}

func (d *guardDev) GetVirtualizationMode() (nvml.GpuVirtualizationMode, nvml.Return) {
	return guard(d.syms, d.Device.GetVirtualizationMode, "nvmlDeviceGetVirtualizationMode")
}

func (d *guardDev) GpmMigSampleGet(a0 int, a1 nvml.GpmSample) nvml.Return {
	return guardRet(d.syms, func() nvml.Return { return d.Device.GpmMigSampleGet(a0, a1) }, "nvmlGpmMigSampleGet")
}

func (d *guardDev) GpmQueryDeviceSupport() (nvml.GpmSupport, nvml.Return) {
	return guard(d.syms, d.Device.GpmQueryDeviceSupport, "nvmlGpmQueryDeviceSupport")
}

func (d *guardDev) GpmSampleGet(a0 nvml.GpmSample) nvml.Return {
	return guardRet(d.syms, func() nvml.Return { return d.Device.GpmSampleGet(a0) }, "nvmlGpmSampleGet")
}

func (d *guardDev) RegisterEvents(a0 uint64, a1 nvml.EventSet) nvml.Return {
	return guardRet(d.syms, func() nvml.Return { return d.Device.RegisterEvents(a0, a1) }, "nvmlDeviceRegisterEvents")
}
