package promexport

import "github.com/gpuscope/gpuscope/sampler"

// ownGPULabels are on every gpuscope_gpu_* series. hostname is repeated on
// each so a fleet query needs no join with gpuscope_node_info to name a node.
var ownGPULabels = []string{"hostname", "gpu", "uuid"}

// ownMetric is one of ownGPUMetrics' families.
func ownMetric(name, help string, counter bool, v func(*sampler.GPU, xidCount) (float64, bool)) gpuMetric {
	return gpuMetric{fam: newFamily("gpuscope_gpu_"+name, help, counter, ownGPULabels...), value: v}
}

// ownGPUMetrics is gpuscope's per-GPU set, in base units (ratio 0-1, bytes,
// hertz, watts, celsius, bytes per second) and _total counters, as the
// Prometheus naming guide asks (prometheus.io/docs/practices/naming).
func ownGPUMetrics() []gpuMetric {
	g := func(name, help string, v func(*sampler.GPU, xidCount) (float64, bool)) gpuMetric {
		return ownMetric(name, help, false, v)
	}
	c := func(name, help string, v func(*sampler.GPU, xidCount) (float64, bool)) gpuMetric {
		return ownMetric(name, help, true, v)
	}
	pct := func(f func(*sampler.GPU) sampler.Metric) func(*sampler.GPU, xidCount) (float64, bool) {
		return scaled(f, 0.01)
	}
	mhz := func(f func(*sampler.GPU) sampler.Metric) func(*sampler.GPU, xidCount) (float64, bool) {
		return scaled(f, 1e6)
	}
	return []gpuMetric{
		g("utilization_ratio", "Share of time a kernel ran (NVML GPU-Util), 0-1.", pct(func(g *sampler.GPU) sampler.Metric { return g.Util })),
		g("memory_utilization_ratio", "Share of time the memory controller was busy, 0-1.", pct(func(g *sampler.GPU) sampler.Metric { return g.MemUtil })),
		g("sm_active_ratio", "Share of cycles an SM had a warp assigned (GPM), 0-1.", pct(func(g *sampler.GPU) sampler.Metric { return g.SMActive })),
		g("sm_occupancy_ratio", "Resident warps over the maximum (GPM), 0-1.", pct(func(g *sampler.GPU) sampler.Metric { return g.SMOccupancy })),
		g("tensor_active_ratio", "Share of cycles the tensor pipes were active (GPM), 0-1.", pct(func(g *sampler.GPU) sampler.Metric { return g.TensorActive })),
		g("dram_active_ratio", "Share of cycles device memory was busy (GPM), 0-1.", pct(func(g *sampler.GPU) sampler.Metric { return g.DRAMActive })),
		g("graphics_engine_active_ratio", "Share of time the graphics/compute engine was busy (GPM), 0-1.", pct(func(g *sampler.GPU) sampler.Metric { return g.GRActive })),
		g("encoder_utilization_ratio", "Video encoder utilisation, 0-1.", pct(func(g *sampler.GPU) sampler.Metric { return g.EncUtil })),
		g("decoder_utilization_ratio", "Video decoder utilisation, 0-1.", pct(func(g *sampler.GPU) sampler.Metric { return g.DecUtil })),
		g("memory_used_bytes", "Device memory in use.", raw(func(g *sampler.GPU) sampler.Metric { return g.MemUsed })),
		g("memory_total_bytes", "Device memory size.", raw(func(g *sampler.GPU) sampler.Metric { return g.MemTotal })),
		g("memory_reserved_bytes", "Device memory the driver reserves for itself.", raw(func(g *sampler.GPU) sampler.Metric { return g.MemReserved })),
		g("temperature_celsius", "GPU die temperature.", raw(func(g *sampler.GPU) sampler.Metric { return g.Temp })),
		g("memory_temperature_celsius", "Device memory temperature.", raw(func(g *sampler.GPU) sampler.Metric { return g.MemTemp })),
		g("slowdown_temperature_celsius", "Temperature at which the GPU slows its clocks.", raw(func(g *sampler.GPU) sampler.Metric { return g.TempSlowdown })),
		g("power_watts", "Power draw.", raw(func(g *sampler.GPU) sampler.Metric { return g.Power })),
		g("power_limit_watts", "Enforced power limit.", raw(func(g *sampler.GPU) sampler.Metric { return g.PowerLimit })),
		c("energy_joules_total", "Energy the board used since the driver loaded.", raw(func(g *sampler.GPU) sampler.Metric { return g.Energy })),
		g("fan_speed_ratio", "Fan speed, 0-1 of its maximum.", pct(func(g *sampler.GPU) sampler.Metric { return g.Fan })),
		g("performance_state", "Performance state P0 (fastest) to P15.", raw(func(g *sampler.GPU) sampler.Metric { return g.PState })),
		g("sm_clock_hertz", "SM clock.", mhz(func(g *sampler.GPU) sampler.Metric { return g.SMClock })),
		g("memory_clock_hertz", "Memory clock.", mhz(func(g *sampler.GPU) sampler.Metric { return g.MemClock })),
		g("sm_clock_max_hertz", "Maximum SM clock.", mhz(func(g *sampler.GPU) sampler.Metric { return g.SMClockMax })),
		g("pcie_receive_bytes_per_second", "PCIe receive throughput.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeRx })),
		g("pcie_transmit_bytes_per_second", "PCIe transmit throughput.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeTx })),
		g("nvlink_receive_bytes_per_second", "NVLink receive throughput, all links.", raw(func(g *sampler.GPU) sampler.Metric { return g.NVLinkRx })),
		g("nvlink_transmit_bytes_per_second", "NVLink transmit throughput, all links.", raw(func(g *sampler.GPU) sampler.Metric { return g.NVLinkTx })),
		g("pcie_link_generation", "PCIe link generation now.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeGen })),
		g("pcie_link_width", "PCIe link width (lanes) now.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeWidth })),
		g("pcie_link_generation_max", "Highest PCIe generation of the GPU and slot.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeGenMax })),
		g("pcie_link_width_max", "Widest PCIe link of the GPU and slot.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeWidthMax })),
		c("pcie_replays_total", "PCIe replays (retries) since the driver loaded.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeReplays })),
		c("ecc_corrected_errors_total", "Corrected (single-bit) ECC errors since the driver loaded.", raw(func(g *sampler.GPU) sampler.Metric { return g.ECCCorrected })),
		c("ecc_uncorrected_errors_total", "Uncorrected (double-bit) ECC errors since the driver loaded.", raw(func(g *sampler.GPU) sampler.Metric { return g.ECCUncorrected })),
		g("remapped_rows", "Memory rows remapped.", raw(func(g *sampler.GPU) sampler.Metric { return g.RemappedRows })),
		g("remapped_rows_correctable", "Memory rows remapped for correctable errors.", raw(func(g *sampler.GPU) sampler.Metric { return g.RemappedCorrectable })),
		g("remapped_rows_uncorrectable", "Memory rows remapped for uncorrectable errors.", raw(func(g *sampler.GPU) sampler.Metric { return g.RemappedUncorrectable })),
		g("row_remap_pending", "1 while a row remap waits for a GPU reset.", flag(func(g *sampler.GPU) bool { return g.RemapPending })),
		g("row_remap_failed", "1 when a row remap failed.", flag(func(g *sampler.GPU) bool { return g.RemapFailed })),
		c("xid_errors_total", "Xid errors the driver reported since the exporter started.", func(_ *sampler.GPU, x xidCount) (float64, bool) { return float64(x.total), true }),
	}
}

// ownFamilies are the families of gpuscope's own set.
type ownFamilies struct {
	gpu                                    []gpuMetric
	gpuInfo, gpuLost, clockEvent           *family
	procMem, procSM, procCPU               *family
	procWorkers, procWorkersCPU, procBlock *family
	host                                   []hostMetric
	finding, findingSince                  *family
	nodeInfo, build                        *family
	podInfo                                *family // nil off Kubernetes
	jobInfo, jobHeld, jobUsed              *family // scheduler jobs and GPU time per job (jobs.go)
}

// procLabels are on every gpuscope_process_* series. container is the
// runtime's short id from the cgroup; pod_uid the Kubernetes pod's UID when
// the cgroup path shows one; namespace, pod and container_name the
// kubelet's names for it (sampler.Proc.Pod: its pod-resources API), as
// dcgm-exporter names a GPU's pod (container_name as cAdvisor once did,
// since container is the id). job_pid is the parent that makes the process
// one rank of a job (torchrun, deepspeed, mpirun; diagnose.JobParent), ""
// when none: ranks read back from Prometheus group by it as on the node.
var procLabels = []string{"hostname", "gpu", "uuid", "pid", "command", "user", "container", "pod_uid", "namespace", "pod", "container_name", "job_pid"}

// jobLabels are on the per-job counters: kind is slurm, pod or process
// (a job no scheduler named: its launcher's or process's key, as report's
// energy by job), job its id, user its owner.
var jobLabels = []string{"hostname", "kind", "job", "user"}

var findingLabels = []string{"hostname", "rule", "severity", "gpu", "pid"}

func newOwnFamilies(withPods bool) ownFamilies {
	g := func(name, help string, labels ...string) *family { return newFamily(name, help, false, labels...) }
	var podInfo *family
	if withPods {
		podInfo = g("gpuscope_gpu_pod_info", "1 per GPU the kubelet allocated to a container.", "hostname", "gpu", "uuid", "namespace", "pod", "container")
	}
	return ownFamilies{
		podInfo:        podInfo,
		jobInfo:        g("gpuscope_gpu_job_info", "1 per GPU a scheduler allocated: kind slurm (job id, its user) or pod (namespace/name, namespace).", "hostname", "gpu", "uuid", "kind", "job", "user"),
		jobHeld:        newFamily("gpuscope_job_gpu_held_seconds_total", "GPU time a job held since serve started (allocated, or its process on the GPU), GPU-seconds.", true, jobLabels...),
		jobUsed:        newFamily("gpuscope_job_gpu_used_seconds_total", "GPU time a job used: held time weighted by GPU-Util (SM activity on MIG), GPU-seconds.", true, jobLabels...),
		gpu:            ownGPUMetrics(),
		gpuInfo:        g("gpuscope_gpu_info", "1 per GPU; labels name the model, bus and architecture.", "hostname", "gpu", "uuid", "model", "pci_bus_id", "arch"),
		gpuLost:        g("gpuscope_gpu_lost", "1 once the GPU fell off the bus (NVML GPU_IS_LOST).", ownGPULabels...),
		clockEvent:     g("gpuscope_gpu_clock_event_active", "1 while a clock event reason holds (nvmlClocksEventReason*).", "hostname", "gpu", "uuid", "reason"),
		procMem:        g("gpuscope_process_gpu_memory_bytes", "GPU memory a process holds on a GPU.", procLabels...),
		procSM:         g("gpuscope_process_sm_utilization_ratio", "Share of time a process's kernels ran on a GPU's SMs, 0-1.", procLabels...),
		procCPU:        g("gpuscope_process_cpu_usage_ratio", "CPU a process uses, 1 = one core busy.", procLabels...),
		procWorkers:    g("gpuscope_process_workers", "Child processes of a GPU process (DataLoader workers).", procLabels...),
		procWorkersCPU: g("gpuscope_process_workers_cpu_usage_ratio", "CPU the child processes use together, 1 = one core busy.", procLabels...),
		procBlock:      g("gpuscope_process_workers_blocked", "Child processes in uninterruptible sleep (D: waiting on I/O).", procLabels...),
		host:           hostMetrics(),
		finding:        g("gpuscope_finding", "1 while a diagnosis finding is open; gpu -1 is the whole node, pid 0 no single process.", findingLabels...),
		findingSince:   g("gpuscope_finding_since_timestamp_seconds", "When an open finding opened, Unix time.", findingLabels...),
		nodeInfo:       g("gpuscope_node_info", "1; labels name the node and its driver stack.", "hostname", "driver", "cuda", "source"),
		build:          g("gpuscope_build_info", "1; the gpuscope version serving these metrics.", "version"),
	}
}

func (o *ownFamilies) all() []*family {
	var out []*family
	for _, m := range o.gpu {
		out = append(out, m.fam)
	}
	for _, m := range o.host {
		out = append(out, m.fam)
	}
	if o.podInfo != nil {
		out = append(out, o.podInfo)
	}
	return append(out, o.jobInfo, o.jobHeld, o.jobUsed, o.gpuInfo, o.gpuLost, o.clockEvent, o.procMem, o.procSM, o.procCPU,
		o.procWorkers, o.procWorkersCPU, o.procBlock, o.finding, o.findingSince, o.nodeInfo, o.build)
}
