package diagnose

// RuleInfo describes one rule id: its title, the seed sections it rests on
// and whether its findings are about the whole node (GPU -1).
type RuleInfo struct {
	ID    string
	Title string
	Seeds string // e.g. "000 §2.1 §4.1; 002 §3.1"
	Node  bool
}

// Rule ids, in the canonical order of the diagnosis issue (docs/scenarios.md).
const (
	RuleInputStarved       = "input_starved"
	RuleIOBound            = "io_bound"
	RuleLaunchBound        = "launch_bound"
	RuleSyncStall          = "sync_stall"
	RuleCopyBound          = "copy_bound"
	RuleMemoryBandwidth    = "memory_bandwidth_bound"
	RuleTensorCoresIdle    = "tensor_cores_idle"
	RuleMemoryIdleHeld     = "memory_idle_held"
	RuleMemoryPressure     = "memory_pressure"
	RuleLoadImbalance      = "load_imbalance"
	RuleStraggler          = "straggler"
	RuleCommBound          = "comm_bound"
	RuleGPUContention      = "gpu_contention"
	RulePowerCapped        = "power_capped"
	RuleThermalThrottle    = "thermal_throttle"
	RulePCIeLinkDegraded   = "pcie_link_degraded"
	RulePCIeErrors         = "pcie_errors"
	RuleXidError           = "xid_error"
	RuleECCErrors          = "ecc_errors"
	RuleServingUnderfilled = "serving_underfilled"
	RuleFabricManager      = "fabric_manager"
)

// Rules lists every rule id in canonical order. Rank uses this order as its
// last tie-breaker. Treat it as read-only.
var Rules = []RuleInfo{
	{RuleInputStarved, "GPU starved by the input pipeline (CPU-bound data loading)", "000 §2.1 §4.1 §8.4; 002 §3.1 §7.1", false},
	{RuleIOBound, "GPU waiting on disk or network reads", "000 §4.1; 002 §3.1 §7.1", false},
	{RuleLaunchBound, "GPU busy but few SMs used (kernels too small / launch-bound)", "000 §1 §2.2 §4.2 §4.4; 002 §3.2", false},
	{RuleSyncStall, "Regular stalls at host synchronisation points", "000 §2.4 §4.5; 002 §7.2", false},
	{RuleCopyBound, "Host↔device copies not overlapped with compute", "000 §2.5 §4.1; 002 §3.1", false},
	{RuleMemoryBandwidth, "Memory-bandwidth bound: DRAM saturated, compute waiting", "000 §2.3 §4.3 §4.4", false},
	{RuleTensorCoresIdle, "SMs busy but tensor cores idle (no mixed precision)", "000 §4.3 §8.4; 002 §3.2 §8.2", false},
	{RuleMemoryIdleHeld, "GPU idle while a process holds its memory", "000 §2.5; 002 §6.1 §8.1", false},
	{RuleMemoryPressure, "GPU memory nearly full", "000 §2.5 §4.2; 002 §3.2 §6.1", false},
	{RuleLoadImbalance, "Work piled on one GPU while others sit empty", "002 §3.3 §5.1; 000 §7.3", true},
	{RuleStraggler, "One GPU is the straggler; the others wait for it", "002 §3.3; 000 §2.4 §4.5", true},
	{RuleCommBound, "Multi-GPU job waiting on communication", "000 §2.4 §4.5; 002 §3.3 §7.1", true},
	{RuleGPUContention, "Several processes compete for one GPU", "002 §8.1 §5.1", false},
	{RulePowerCapped, "Clocks held down by the power limit", "002 §6.2 §7.1", false},
	{RuleThermalThrottle, "Clocks held down by temperature", "002 §6.2 §7.1", false},
	{RulePCIeLinkDegraded, "PCIe link trained below its capability under load", "002 §6.3", false},
	{RulePCIeErrors, "PCIe link errors (replays) rising", "002 §6.3", false},
	{RuleXidError, "Driver reported Xid errors", "002 §6.3 §7.1", false},
	{RuleECCErrors, "Uncorrectable memory errors / row remapping", "002 §6.1", false},
	{RuleServingUnderfilled, "Inference server underfilled: batch requests", "002 §4.1 §4.2 §8.2; 000 §8.4", false},
	{RuleFabricManager, "NVSwitch fabric not initialised: CUDA cannot start (fabric manager)", "002 §6.3 §7.1", true},
}

// Lookup returns the rule with this id.
func Lookup(id string) (RuleInfo, bool) {
	if i := ruleIndex(id); i >= 0 {
		return Rules[i], true
	}
	return RuleInfo{}, false
}

// ruleIndex is the position of id in Rules, or -1.
func ruleIndex(id string) int {
	for i := range Rules {
		if Rules[i].ID == id {
			return i
		}
	}
	return -1
}

// healthRule reports rules that fire at once, without the new-process grace
// period or the engine's open delay: hardware health does not wait for a
// workload to settle (research note: "any → shown at once").
func healthRule(id string) bool {
	switch id {
	case RuleXidError, RuleECCErrors, RulePCIeErrors, RuleThermalThrottle, RuleFabricManager:
		return true
	}
	return false
}

// Positions of the rules in Rules, for suppression bitmasks (a test checks
// they match).
const (
	rInputStarved = iota
	rIOBound
	rLaunchBound
	rSyncStall
	rCopyBound
	rMemoryBandwidth
	rTensorCoresIdle
	rMemoryIdleHeld
	rMemoryPressure
	rLoadImbalance
	rStraggler
	rCommBound
	rGPUContention
	rPowerCapped
	rThermalThrottle
	rPCIeLinkDegraded
	rPCIeErrors
	rXidError
	rECCErrors
	rServingUnderfilled
	rFabricManager
)
