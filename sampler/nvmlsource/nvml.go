package nvmlsource

import "github.com/NVIDIA/go-nvml/pkg/nvml"

// Library is the part of go-nvml's nvml.Interface the reader calls, and
// Device the part of nvml.Device (as dcgm-exporter wraps only what it
// uses): the reader's dependency is visible at a glance, and a fake needs
// only these. go-nvml's own types satisfy both (checked below).
type Library interface {
	DeviceGetCount() (int, nvml.Return)
	DeviceGetHandleByIndex(int) (nvml.Device, nvml.Return)
	EventSetCreate() (nvml.EventSet, nvml.Return)
	GpmMetricsGet(*nvml.GpmMetricsGetType) nvml.Return
	GpmSampleAlloc() (nvml.GpmSample, nvml.Return)
	Init() nvml.Return
	Shutdown() nvml.Return
	SystemGetCudaDriverVersion() (int, nvml.Return)
	SystemGetDriverVersion() (string, nvml.Return)
	SystemGetNVMLVersion() (string, nvml.Return)
}

// Device is the part of nvml.Device the reader calls, on a GPU and on a MIG
// device. Handles passed back to NVML as arguments stay nvml.Device.
type Device interface {
	GetArchitecture() (nvml.DeviceArchitecture, nvml.Return)
	GetAttributes() (nvml.DeviceAttributes, nvml.Return)
	GetClockInfo(nvml.ClockType) (uint32, nvml.Return)
	GetComputeInstanceId() (int, nvml.Return)
	GetComputeMode() (nvml.ComputeMode, nvml.Return)
	GetComputeRunningProcesses() ([]nvml.ProcessInfo, nvml.Return)
	GetCpuAffinity(int) ([]uint, nvml.Return)
	GetCurrPcieLinkGeneration() (int, nvml.Return)
	GetCurrPcieLinkWidth() (int, nvml.Return)
	GetCurrentClocksEventReasons() (uint64, nvml.Return)
	GetDecoderUtilization() (uint32, uint32, nvml.Return)
	GetEncoderUtilization() (uint32, uint32, nvml.Return)
	GetEnforcedPowerLimit() (uint32, nvml.Return)
	GetFanSpeed() (uint32, nvml.Return)
	GetFieldValues([]nvml.FieldValue) nvml.Return
	GetGpuInstanceId() (int, nvml.Return)
	GetGraphicsRunningProcesses() ([]nvml.ProcessInfo, nvml.Return)
	GetGridLicensableFeatures() (nvml.GridLicensableFeatures, nvml.Return)
	GetMaxClockInfo(nvml.ClockType) (uint32, nvml.Return)
	GetMaxMigDeviceCount() (int, nvml.Return)
	GetMaxPcieLinkGeneration() (int, nvml.Return)
	GetMaxPcieLinkWidth() (int, nvml.Return)
	GetMemoryInfo() (nvml.Memory, nvml.Return)
	GetMemoryInfo_v2() (nvml.Memory_v2, nvml.Return)
	GetMigDeviceHandleByIndex(int) (nvml.Device, nvml.Return)
	GetMigMode() (int, int, nvml.Return)
	GetName() (string, nvml.Return)
	GetNumaNodeId() (int, nvml.Return)
	GetNvLinkErrorCounter(int, nvml.NvLinkErrorCounter) (uint64, nvml.Return)
	GetNvLinkRemoteDeviceType(int) (nvml.IntNvLinkDeviceType, nvml.Return)
	GetNvLinkRemotePciInfo(int) (nvml.PciInfo, nvml.Return)
	GetNvLinkState(int) (nvml.EnableState, nvml.Return)
	GetPciInfo() (nvml.PciInfo, nvml.Return)
	GetPcieReplayCounter() (int, nvml.Return)
	GetPcieThroughput(nvml.PcieUtilCounter) (uint32, nvml.Return)
	GetPerformanceState() (nvml.Pstates, nvml.Return)
	GetPersistenceMode() (nvml.EnableState, nvml.Return)
	GetPowerUsage() (uint32, nvml.Return)
	GetProcessUtilization(uint64) ([]nvml.ProcessUtilizationSample, nvml.Return)
	GetRemappedRows() (int, int, bool, bool, nvml.Return)
	GetTemperature(nvml.TemperatureSensors) (uint32, nvml.Return)
	GetTemperatureThreshold(nvml.TemperatureThresholds) (uint32, nvml.Return)
	GetTopologyCommonAncestor(nvml.Device) (nvml.GpuTopologyLevel, nvml.Return)
	GetTotalEccErrors(nvml.MemoryErrorType, nvml.EccCounterType) (uint64, nvml.Return)
	GetTotalEnergyConsumption() (uint64, nvml.Return)
	GetUUID() (string, nvml.Return)
	GetUtilizationRates() (nvml.Utilization, nvml.Return)
	GetVirtualizationMode() (nvml.GpuVirtualizationMode, nvml.Return)
	GpmMigSampleGet(int, nvml.GpmSample) nvml.Return
	GpmQueryDeviceSupport() (nvml.GpmSupport, nvml.Return)
	GpmSampleGet(nvml.GpmSample) nvml.Return
	RegisterEvents(uint64, nvml.EventSet) nvml.Return
}

var (
	_ Library = nvml.Interface(nil)
	_ Device  = nvml.Device(nil)
)
