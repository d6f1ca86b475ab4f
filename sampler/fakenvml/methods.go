package fakenvml

// method identifies an NVML method the fake answers, so that counting calls
// and looking up faults cost two array reads instead of a map lookup.
type method uint8

// The methods, named after go-nvml's.
const (
	mDeviceGetCount method = iota
	mDeviceGetHandleByIndex
	mEventSetCreate
	mGetArchitecture
	mGetAttributes
	mGetComputeInstanceId
	mGetGpuInstanceId
	mGetMaxMigDeviceCount
	mGetMigDeviceHandleByIndex
	mGpmMigSampleGet
	mGetClockInfo
	mGetComputeMode
	mGetComputeRunningProcesses
	mGetCpuAffinity
	mGetCurrPcieLinkGeneration
	mGetCurrPcieLinkWidth
	mGetCurrentClocksEventReasons
	mGetCurrentClocksThrottleReasons
	mGetDecoderUtilization
	mGetEncoderUtilization
	mGetEnforcedPowerLimit
	mGetFanSpeed
	mGetFieldValues
	mGetGpuFabricInfo
	mGetGraphicsRunningProcesses
	mGetGridLicensableFeatures
	mGetMaxClockInfo
	mGetMaxPcieLinkGeneration
	mGetMaxPcieLinkWidth
	mGetMemoryInfo
	mGetMemoryInfov2
	mGetMigMode
	mGetName
	mGetNumaNodeId
	mGetNvLinkErrorCounter
	mGetNvLinkRemoteDeviceType
	mGetNvLinkRemotePciInfo
	mGetNvLinkState
	mGetPciInfo
	mGetPcieReplayCounter
	mGetPcieThroughput
	mGetPerformanceState
	mGetPersistenceMode
	mGetPowerUsage
	mGetProcessUtilization
	mGetRemappedRows
	mGetTemperature
	mGetTemperatureThreshold
	mGetTopologyCommonAncestor
	mGetTotalEccErrors
	mGetTotalEnergyConsumption
	mGetUUID
	mGetUtilizationRates
	mGetVirtualizationMode
	mGpmMetricsGet
	mGpmQueryDeviceSupport
	mGpmSampleAlloc
	mGpmSampleGet
	mInit
	mRegisterEvents
	mShutdown
	mSystemGetCudaDriverVersion
	mSystemGetDriverVersion
	mSystemGetNVMLVersion
	mWait
	numMethods
)

// methodNames spell the methods as go-nvml does; SetFault and Calls take
// these names. A read-only table.
var methodNames = [numMethods]string{
	mDeviceGetCount:                  "DeviceGetCount",
	mDeviceGetHandleByIndex:          "DeviceGetHandleByIndex",
	mEventSetCreate:                  "EventSetCreate",
	mGetArchitecture:                 "GetArchitecture",
	mGetAttributes:                   "GetAttributes",
	mGetComputeInstanceId:            "GetComputeInstanceId",
	mGetGpuInstanceId:                "GetGpuInstanceId",
	mGetMaxMigDeviceCount:            "GetMaxMigDeviceCount",
	mGetMigDeviceHandleByIndex:       "GetMigDeviceHandleByIndex",
	mGpmMigSampleGet:                 "GpmMigSampleGet",
	mGetClockInfo:                    "GetClockInfo",
	mGetComputeMode:                  "GetComputeMode",
	mGetComputeRunningProcesses:      "GetComputeRunningProcesses",
	mGetCpuAffinity:                  "GetCpuAffinity",
	mGetCurrPcieLinkGeneration:       "GetCurrPcieLinkGeneration",
	mGetCurrPcieLinkWidth:            "GetCurrPcieLinkWidth",
	mGetCurrentClocksEventReasons:    "GetCurrentClocksEventReasons",
	mGetCurrentClocksThrottleReasons: "GetCurrentClocksThrottleReasons",
	mGetDecoderUtilization:           "GetDecoderUtilization",
	mGetEncoderUtilization:           "GetEncoderUtilization",
	mGetEnforcedPowerLimit:           "GetEnforcedPowerLimit",
	mGetFanSpeed:                     "GetFanSpeed",
	mGetFieldValues:                  "GetFieldValues",
	mGetGpuFabricInfo:                "GetGpuFabricInfo",
	mGetGraphicsRunningProcesses:     "GetGraphicsRunningProcesses",
	mGetGridLicensableFeatures:       "GetGridLicensableFeatures",
	mGetMaxClockInfo:                 "GetMaxClockInfo",
	mGetMaxPcieLinkGeneration:        "GetMaxPcieLinkGeneration",
	mGetMaxPcieLinkWidth:             "GetMaxPcieLinkWidth",
	mGetMemoryInfo:                   "GetMemoryInfo",
	mGetMemoryInfov2:                 "GetMemoryInfo_v2",
	mGetMigMode:                      "GetMigMode",
	mGetName:                         "GetName",
	mGetNumaNodeId:                   "GetNumaNodeId",
	mGetNvLinkErrorCounter:           "GetNvLinkErrorCounter",
	mGetNvLinkRemoteDeviceType:       "GetNvLinkRemoteDeviceType",
	mGetNvLinkRemotePciInfo:          "GetNvLinkRemotePciInfo",
	mGetNvLinkState:                  "GetNvLinkState",
	mGetPciInfo:                      "GetPciInfo",
	mGetPcieReplayCounter:            "GetPcieReplayCounter",
	mGetPcieThroughput:               "GetPcieThroughput",
	mGetPerformanceState:             "GetPerformanceState",
	mGetPersistenceMode:              "GetPersistenceMode",
	mGetPowerUsage:                   "GetPowerUsage",
	mGetProcessUtilization:           "GetProcessUtilization",
	mGetRemappedRows:                 "GetRemappedRows",
	mGetTemperature:                  "GetTemperature",
	mGetTemperatureThreshold:         "GetTemperatureThreshold",
	mGetTopologyCommonAncestor:       "GetTopologyCommonAncestor",
	mGetTotalEccErrors:               "GetTotalEccErrors",
	mGetTotalEnergyConsumption:       "GetTotalEnergyConsumption",
	mGetUUID:                         "GetUUID",
	mGetUtilizationRates:             "GetUtilizationRates",
	mGetVirtualizationMode:           "GetVirtualizationMode",
	mGpmMetricsGet:                   "GpmMetricsGet",
	mGpmQueryDeviceSupport:           "GpmQueryDeviceSupport",
	mGpmSampleAlloc:                  "GpmSampleAlloc",
	mGpmSampleGet:                    "GpmSampleGet",
	mInit:                            "Init",
	mRegisterEvents:                  "RegisterEvents",
	mShutdown:                        "Shutdown",
	mSystemGetCudaDriverVersion:      "SystemGetCudaDriverVersion",
	mSystemGetDriverVersion:          "SystemGetDriverVersion",
	mSystemGetNVMLVersion:            "SystemGetNVMLVersion",
	mWait:                            "Wait",
}

// methodByName finds a method by its go-nvml name.
func methodByName(name string) (method, bool) {
	for m, n := range methodNames {
		if n == name {
			return method(m), true
		}
	}
	return 0, false
}

// Methods lists the method names SetFault understands (besides "*").
func Methods() []string { return append([]string(nil), methodNames[:]...) }
