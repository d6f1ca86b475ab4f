package diagnose

// RuleInfo is everything the program decides about one rule id, in one
// row: adding a rule touches this table, its rule_*.go file, its playbook
// pages (docs/playbook) and the message files, nothing else.
type RuleInfo struct {
	ID    string
	Title string
	// Refs are the sections of the two articles the rule rests on, by their
	// docs/references.md keys.
	Refs string
	// Node: the rule's findings are about the whole node (GPU -1).
	Node bool
	// Scope is where the evaluation runs the rule (see evaluate.go).
	Scope Scope
	// Immediate rules are hardware health: they open without the new
	// process's grace period or the engine's open delay, because a fault
	// does not wait for a workload to settle.
	Immediate bool
	// NeedsHost: the rule reads the host's CPU, iowait or process tree, so
	// it cannot fire on data without them (a dcgm-exporter series, a
	// recording made without host data).
	NeedsHost bool
	// NeedsProcesses: the rule judges a GPU by the processes on it, which
	// dcgm-exporter does not export.
	NeedsProcesses bool
	// Steps are the [gpu-idle-handbook] §7.1 checklist steps (1-based)
	// where the rule's findings show.
	Steps []int
	// Suppresses: when this rule fires on a GPU, these stay silent there,
	// because this one explains the same symptom better; the evaluation
	// runs it before them.
	Suppresses []string
	// ServerSilent: silent on an inference server's GPU, whose idle time
	// is request-driven; training advice does not apply to it.
	ServerSilent bool
	// JobWaitSilent: silent on the GPUs of a job that waits on a straggler
	// or on communication, which look launch-bound, stalled or copy-bound;
	// the node finding names the cause.
	JobWaitSilent bool
}

// Scope is where a rule is evaluated.
type Scope int

const (
	// ScopeGPU rules judge any GPU, with or without a process.
	ScopeGPU Scope = iota
	// ScopeWorkload rules judge a GPU by its main process.
	ScopeWorkload
	// ScopeJob rules judge the GPUs of one multi-GPU job together.
	ScopeJob
	// ScopeNode rules judge the node's GPUs side by side.
	ScopeNode
	// ScopeEvidence rules come only from what an imported text proves
	// (evidence.go); no window rule opens them.
	ScopeEvidence
)

// Rule ids, in the canonical order of docs/scenarios.md. They are a public
// interface: JSON output, explain, Prometheus labels.
const (
	RuleInputStarved       = "input_starved"
	RuleIOBound            = "io_bound"
	RuleLaunchBound        = "launch_bound"
	RuleSyncStall          = "sync_stall"
	RuleCopyBound          = "copy_bound"
	RuleMemoryBandwidth    = "memory_bandwidth_bound"
	RuleTensorCoresIdle    = "tensor_cores_idle"
	RuleMemoryIdleHeld     = "memory_idle_held"
	RuleAllocatedIdle      = "allocated_idle"
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
	RuleHostWait           = "host_wait"
	RuleVGPUUnlicensed     = "vgpu_unlicensed"
	RuleContainerGPULost   = "container_gpu_lost"
	RuleMemoryPreallocated = "memory_preallocated"
)

// Article sections, shortened for the table below.
const (
	pipe = "[gpu-idle-pipeline]"
	book = "[gpu-idle-handbook]"
)

// Rules lists every rule in canonical order; Rank uses this order as its
// last tie-breaker. Treat it as read-only.
var Rules = []RuleInfo{
	{ID: RuleInputStarved, Title: "GPU starved by the input pipeline (CPU-bound data loading)",
		Refs: pipe + " §2.1 §4.1 §8.4; " + book + " §3.1 §7.1", Scope: ScopeWorkload, NeedsHost: true,
		Steps: []int{3}, Suppresses: []string{RuleSyncStall}, ServerSilent: true},
	{ID: RuleIOBound, Title: "GPU waiting on disk or network reads",
		Refs: pipe + " §4.1; " + book + " §3.1 §7.1", Scope: ScopeWorkload, NeedsHost: true,
		Steps: []int{4}, Suppresses: []string{RuleInputStarved, RuleSyncStall}, ServerSilent: true}, // reads, not CPU, hold the loader
	{ID: RuleLaunchBound, Title: "GPU busy but few SMs used (kernels too small / launch-bound)",
		Refs: pipe + " §1 §2.2 §4.2 §4.4; " + book + " §3.2", Scope: ScopeWorkload, NeedsProcesses: true,
		Steps: []int{5, 7}, ServerSilent: true, JobWaitSilent: true}, // step 5: power far below TDP = no heavy compute
	{ID: RuleSyncStall, Title: "Regular stalls at host synchronisation points",
		Refs: pipe + " §2.4 §4.5; " + book + " §7.2", Scope: ScopeWorkload, NeedsHost: true,
		Steps: []int{7}, ServerSilent: true, JobWaitSilent: true},
	{ID: RuleCopyBound, Title: "Host↔device copies not overlapped with compute",
		Refs: pipe + " §2.5 §4.1; " + book + " §3.1", Scope: ScopeWorkload, NeedsProcesses: true,
		Steps: []int{7}, Suppresses: []string{RuleSyncStall}, JobWaitSilent: true}, // the dips are the copies
	{ID: RuleMemoryBandwidth, Title: "Memory-bandwidth bound: DRAM saturated, compute waiting",
		Refs: pipe + " §2.3 §4.3 §4.4", Scope: ScopeWorkload, NeedsProcesses: true,
		Steps: []int{7}, Suppresses: []string{RuleTensorCoresIdle}}, // memory-bound ops are not tensor-core eligible
	{ID: RuleTensorCoresIdle, Title: "SMs busy but tensor cores idle (no mixed precision)",
		Refs: pipe + " §4.3 §8.4; " + book + " §3.2 §8.2", Scope: ScopeWorkload, NeedsProcesses: true, Steps: []int{7}},
	{ID: RuleMemoryIdleHeld, Title: "GPU idle while a process holds its memory",
		Refs: pipe + " §2.5; " + book + " §6.1 §8.1", Scope: ScopeWorkload, NeedsProcesses: true,
		Steps: []int{1}, ServerSilent: true},
	// A scheduler's allocation with no process on it: held, not used, and
	// invisible to tools that start from processes ([gpu-idle-handbook]
	// §8.1 other jobs on the node, §6.1 held is not used).
	{ID: RuleAllocatedIdle, Title: "GPU allocated to a job or pod with no process on it",
		Refs: book + " §6.1 §8.1", Scope: ScopeGPU, Steps: []int{1}},
	{ID: RuleMemoryPressure, Title: "GPU memory nearly full",
		Refs: pipe + " §2.5 §4.2; " + book + " §3.2 §6.1", Scope: ScopeWorkload, Steps: []int{7}, ServerSilent: true},
	{ID: RuleLoadImbalance, Title: "Work piled on one GPU while others sit empty",
		Refs: book + " §3.3 §5.1; " + pipe + " §7.3", Node: true, Scope: ScopeNode, NeedsProcesses: true, Steps: []int{1}},
	{ID: RuleStraggler, Title: "One GPU is the straggler; the others wait for it",
		Refs: book + " §3.3; " + pipe + " §2.4 §4.5", Node: true, Scope: ScopeJob, Steps: []int{6}},
	{ID: RuleCommBound, Title: "Multi-GPU job waiting on communication",
		Refs: pipe + " §2.4 §4.5; " + book + " §3.3 §7.1", Node: true, Scope: ScopeJob, Steps: []int{6}},
	{ID: RuleGPUContention, Title: "Several processes compete for one GPU",
		Refs: book + " §8.1 §5.1", Scope: ScopeWorkload, NeedsProcesses: true,
		Steps: []int{1}, Suppresses: []string{RuleLaunchBound}}, // time-sliced kernels look small and cool: the neighbours are the cause
	// The board's own state: an ECC or Xid critical is not "is the process
	// on the GPU", it is the hardware step beside power and temperature
	// ([gpu-idle-handbook] §6.2, §6.3).
	{ID: RulePowerCapped, Title: "Clocks held down by the power limit",
		Refs: book + " §6.2 §7.1", Scope: ScopeGPU, Steps: []int{5}},
	{ID: RuleThermalThrottle, Title: "Clocks held down by temperature",
		Refs: book + " §6.2 §7.1", Scope: ScopeGPU, Immediate: true, Steps: []int{5}},
	{ID: RulePCIeLinkDegraded, Title: "PCIe link trained below its capability under load",
		Refs: book + " §6.3", Scope: ScopeGPU, Steps: []int{6}},
	{ID: RulePCIeErrors, Title: "PCIe link errors (replays) rising",
		Refs: book + " §6.3", Scope: ScopeGPU, Immediate: true, Steps: []int{6}},
	{ID: RuleXidError, Title: "Driver reported Xid errors",
		Refs: book + " §6.3 §7.1", Scope: ScopeGPU, Immediate: true, Steps: []int{5}},
	{ID: RuleECCErrors, Title: "Uncorrectable memory errors / row remapping",
		Refs: book + " §6.1", Scope: ScopeGPU, Immediate: true, Steps: []int{5}},
	{ID: RuleServingUnderfilled, Title: "Inference server underfilled: batch requests",
		Refs: book + " §4.1 §4.2 §8.2; " + pipe + " §8.4", Scope: ScopeWorkload, NeedsProcesses: true, Steps: []int{2}},
	{ID: RuleFabricManager, Title: "NVSwitch fabric not initialised: CUDA cannot start (fabric manager)",
		Refs: book + " §6.3 §7.1", Node: true, Scope: ScopeEvidence, Immediate: true, Steps: []int{7}},
	// What a GPU-Util series alone proves: the GPU waits on the host in
	// bursts. Input and sync both do that; only host data or a trace tells
	// which, so the finding must not carry either one's id.
	{ID: RuleHostWait, Title: "GPU waits on the host in bursts (input or sync: host data or a trace tells which)",
		Refs: pipe + " §3.1 §3.5 §7", Scope: ScopeEvidence, Steps: []int{2}},
	// A vGPU guest's licence is a cap the driver puts on the GPU, beside
	// power and clocks in the hardware step; only -q text shows it.
	{ID: RuleVGPUUnlicensed, Title: "vGPU not licensed: NVIDIA's driver restricts the GPU (CUDA, frame rate)",
		Refs: book + " §6.2 §7.1", Scope: ScopeEvidence, Steps: []int{5}},
	// A container whose GPU devices were taken away cannot use the GPU at
	// all, whatever the host shows: the "is the GPU usable" step before any
	// performance question, as fabric_manager; only pasted text shows it.
	{ID: RuleContainerGPULost, Title: "Container lost its GPUs: NVML cannot open the devices (device cgroup reset)",
		Refs: book + " §5.2 §7.1", Node: true, Scope: ScopeEvidence, Immediate: true, Steps: []int{7}},
	// A full memory bar held by a framework that reserves memory at start
	// (TensorFlow, JAX, vLLM): said as what it is, in memory_pressure's
	// step, so a paste that shows it is not read as pressure.
	{ID: RuleMemoryPreallocated, Title: "Memory reserved up front by a framework (TensorFlow, JAX, vLLM): not pressure",
		Refs: book + " §6.1", Scope: ScopeEvidence, Steps: []int{7}},
}

// gpuCheck is the function of each ScopeGPU and ScopeWorkload rule
// (rule_*.go); nil for the other scopes, whose functions take a job or the
// node and are called by evaluate.
func gpuCheck(id string) func(*ctx, *gpuCtx) (Finding, bool) {
	switch id {
	case RuleInputStarved:
		return (*ctx).ruleInputStarved
	case RuleIOBound:
		return (*ctx).ruleIOBound
	case RuleLaunchBound:
		return (*ctx).ruleLaunchBound
	case RuleSyncStall:
		return (*ctx).ruleSyncStall
	case RuleCopyBound:
		return (*ctx).ruleCopyBound
	case RuleMemoryBandwidth:
		return (*ctx).ruleMemoryBandwidth
	case RuleTensorCoresIdle:
		return (*ctx).ruleTensorCoresIdle
	case RuleMemoryIdleHeld:
		return (*ctx).ruleMemoryIdleHeld
	case RuleAllocatedIdle:
		return (*ctx).ruleAllocatedIdle
	case RuleMemoryPressure:
		return (*ctx).ruleMemoryPressure
	case RuleGPUContention:
		return (*ctx).ruleGPUContention
	case RulePowerCapped:
		return (*ctx).rulePowerCapped
	case RuleThermalThrottle:
		return (*ctx).ruleThermal
	case RulePCIeLinkDegraded:
		return (*ctx).rulePCIeLink
	case RulePCIeErrors:
		return (*ctx).rulePCIeErrors
	case RuleXidError:
		return (*ctx).ruleXid
	case RuleECCErrors:
		return (*ctx).ruleECC
	case RuleServingUnderfilled:
		return (*ctx).ruleServingUnderfilled
	}
	return nil
}

// Lookup returns the rule with this id. Not inlined, as gpuIn.
//
//go:noinline
func Lookup(id string) (RuleInfo, bool) {
	if i := ruleIndex(id); i >= 0 {
		return Rules[i], true
	}
	return RuleInfo{}, false
}

// RuleOrder is id's position in Rules, the one order every face sorts
// findings by; an unknown id sorts after every rule. Not inlined, as
// gpuIn.
//
//go:noinline
func RuleOrder(id string) int {
	if i := ruleIndex(id); i >= 0 {
		return i
	}
	return len(Rules)
}

// ruleIndex is the position of id in Rules, or -1.
//
// Not inlined: a copy of its loop at each of ~15 call sites cost the binary.
//
//go:noinline
func ruleIndex(id string) int {
	for i := range Rules {
		if Rules[i].ID == id {
			return i
		}
	}
	return -1
}

// immediate reports whether id opens at once (RuleInfo.Immediate).
func immediate(id string) bool {
	r, ok := Lookup(id)
	return ok && r.Immediate
}
