// Package sampler reads the world (NVML, the host's /proc, the simulator,
// recordings and other tools' logs) and turns it into Snapshots: plain values
// that flow one way to diagnose and ui. It imports neither bubbletea nor lipgloss.
package sampler

import "time"

// FormatVersion is the version of the snapshot JSON. Recordings number
// their line format apart (record.Version), which can change while the
// snapshot does not.
const FormatVersion = 1

// Snapshot is everything gpuscope knows about the node at one instant.
// It is the unit of the live data flow, of recordings (one per JSON line) and
// of importers. Consumers must treat it as immutable.
type Snapshot struct {
	Time time.Time `json:"time"`
	Seq  uint64    `json:"seq"`
	Node Node      `json:"node"`
	GPUs []GPU     `json:"gpus"`
	// Host is nil when the source has no host data (an imported nvidia-smi log).
	Host *Host `json:"host,omitempty"`
	// Topology is refreshed on the slow tier; nil when unknown.
	Topology *Topology `json:"topology,omitempty"`
	// Problems lists what went wrong while taking this snapshot (a recovered
	// panic, a source that failed); the tick still completed.
	Problems []string `json:"problems,omitempty"`
}

// Node identifies the machine and where the data came from.
type Node struct {
	Hostname string `json:"hostname"`
	Driver   string `json:"driver,omitempty"`
	CUDA     string `json:"cuda,omitempty"` // e.g. "12.4"
	NVML     string `json:"nvml,omitempty"`
	// Source says where the snapshot came from: "nvml", "demo:mixed",
	// "replay", "nvidia-smi", "dcgmi" ...
	Source string `json:"source"`
	// GPUError is set when no GPU source could start (no driver): the UI then
	// shows the host and a panel explaining what was tried.
	GPUError *SourceError `json:"gpu_error,omitempty"`
	// CUDAError is an application's CUDA initialisation failure the input
	// shows, its code first ("802: system not yet initialized", "46: all
	// CUDA-capable devices are busy or unavailable"), "" for none.
	CUDAError string `json:"cuda_error,omitempty"`
	// ContainerError is nvidia-smi's NVML failure inside a container the
	// input shows (the message and the command that ran it), "" for none.
	ContainerError string `json:"container_error,omitempty"`
	// DriverMismatch is the driver's own word that its kernel module and
	// the user-space libraries are of different releases (NVML's
	// "Driver/library version mismatch", the kernel's "API mismatch" with
	// both versions), "" for none.
	DriverMismatch string `json:"driver_mismatch,omitempty"`
	// FabricError is the fabric manager's failure the input shows (its
	// log's, its service's or its start script's line), "" for none.
	FabricError string `json:"fabric_error,omitempty"`
	// ProcsFrom names where the GPU processes came from when not from
	// NVML: the socket of `gpuscope serve --proc-socket` (inside a
	// container, this container's processes only; Sampler.Procs).
	ProcsFrom string `json:"procs_from,omitempty"`
	// Diag is a DCGM diagnostic run (`dcgmi diag`) the input holds, one
	// entry per test result; nil for none.
	Diag []DiagCheck `json:"diag,omitempty"`
	// SliceOOM are allocations refused for want of GPU memory: over a
	// container's limit (HAMi-core's "Device 0 OOM used / limit", vcuda),
	// or the card itself full (PyTorch's message, the driver under
	// HAMi-core); nil for none. SliceOOM.Layer says which.
	SliceOOM []SliceOOM `json:"slice_oom,omitempty"`
}

// SourceError explains why a source could not start, for a human.
type SourceError struct {
	Tried  string   `json:"tried"`  // e.g. "libnvidia-ml.so.1"
	Err    string   `json:"error"`  // the library's answer
	Causes []string `json:"causes"` // likely causes, most likely first
	// CauseKeys name each cause ("driver", "container", "wsl", "libpath",
	// "rm_mismatch", "no_permission", "init_hang", "revoked"), so a reader in another language can
	// show it translated; CauseSeen[i] is what the filesystem showed for it
	// (paths, kept as they are), "" for none.
	CauseKeys []string `json:"cause_keys,omitempty"`
	CauseSeen []string `json:"cause_seen,omitempty"`
}

// GPU is one device's readings. Every Metric may be unavailable (n/a).
type GPU struct {
	Index int    `json:"index"`
	UUID  string `json:"uuid,omitempty"`
	Name  string `json:"name,omitempty"`
	BusID string `json:"bus_id,omitempty"`
	Arch  string `json:"arch,omitempty"` // "Hopper", "Ampere" ...
	// Lost is set once the GPU answered GPU_IS_LOST (fell off the bus); the
	// other GPUs keep updating.
	Lost bool `json:"lost,omitempty"`
	// DriverOops: the kernel log shows an oops inside the NVIDIA driver,
	// which serves no GPU until a reboot.
	DriverOops bool `json:"driver_oops,omitempty"`
	// GSPFirmwareMissing: the driver found no GSP firmware image for the
	// GPU it failed to initialise: a missing file, not a failing GPU.
	GSPFirmwareMissing bool `json:"gsp_firmware_missing,omitempty"`
	// BARUnassigned: the driver found no address window assigned to one of
	// the GPU's BARs and did not probe it (firmware without Above 4G
	// decoding, a VM's 64-bit MMIO window too small): not a failing GPU.
	BARUnassigned bool `json:"bar_unassigned,omitempty"`
	// Pod is the container the kubelet allocated this GPU to (its
	// pod-resources API, Sampler.PodOf); zero off Kubernetes or when no
	// container holds it.
	Pod Pod `json:"pod,omitzero"`
	// Job and Owner are the batch scheduler's job this GPU is allocated to
	// and the user who owns it (Slurm: the job id and its user, from the
	// processes' environment or cgroup, or scontrol's GRES indices;
	// Sampler.Jobs); "" where no scheduler job holds the GPU.
	Job   string `json:"job,omitempty"`
	Owner string `json:"owner,omitempty"`

	// Fast tier: utilisation (percent 0-100).
	Util    Metric `json:"util,omitzero"`     // GPU-Util: share of time any kernel ran
	MemUtil Metric `json:"mem_util,omitzero"` // memory-controller busy share
	EncUtil Metric `json:"enc_util,omitzero"`
	DecUtil Metric `json:"dec_util,omitzero"`

	// GPM (Hopper and newer), percent 0-100 unless noted.
	SMActive     Metric `json:"sm_active,omitzero"`
	SMOccupancy  Metric `json:"sm_occupancy,omitzero"`
	TensorActive Metric `json:"tensor_active,omitzero"`
	DRAMActive   Metric `json:"dram_active,omitzero"`
	NVLinkRx     Metric `json:"nvlink_rx,omitzero"` // bytes/s
	NVLinkTx     Metric `json:"nvlink_tx,omitzero"` // bytes/s
	// GRActive is the share of time the graphics/compute engine was busy
	// over the GPM interval (DCGM's GR_ENGINE_ACTIVE).
	GRActive Metric `json:"gr_active,omitzero"`

	// Memory in bytes.
	MemUsed  Metric `json:"mem_used,omitzero"`
	MemTotal Metric `json:"mem_total,omitzero"`
	// MemReserved is what the driver keeps for itself (memory info v2,
	// R510+): free = total - reserved - used.
	MemReserved Metric `json:"mem_reserved,omitzero"`

	Temp         Metric `json:"temp,omitzero"`          // °C
	MemTemp      Metric `json:"mem_temp,omitzero"`      // °C, the HBM/GDDR sensor
	TempSlowdown Metric `json:"temp_slowdown,omitzero"` // °C, slow tier
	// TempMaxOp is the GPU's maximum operating temperature (-q "GPU Max
	// Operating Temp"): the driver slows the clocks to stay under it; on
	// laptops and tuned boards it can sit far below the slowdown tier.
	TempMaxOp Metric `json:"temp_max_op,omitzero"` // °C
	// TempTarget is the GPU Boost target a user or the board set (-q "GPU
	// Target Temperature", GeForce/RTX): clocks come down to hold it.
	TempTarget   Metric `json:"temp_target,omitzero"`   // °C
	TempShutdown Metric `json:"temp_shutdown,omitzero"` // °C, the board powers off
	Power        Metric `json:"power,omitzero"`         // W
	PowerLimit   Metric `json:"power_limit,omitzero"`   // W, enforced
	// Energy is the board's energy counter in joules since the driver
	// loaded (Volta+): it only grows, so a rate of it is the mean power.
	Energy Metric `json:"energy,omitzero"`
	Fan    Metric `json:"fan,omitzero"`    // percent
	PState Metric `json:"pstate,omitzero"` // 0..15

	SMClock     Metric `json:"sm_clock,omitzero"`      // MHz
	MemClock    Metric `json:"mem_clock,omitzero"`     // MHz
	SMClockMax  Metric `json:"sm_clock_max,omitzero"`  // MHz, slow tier
	MemClockMax Metric `json:"mem_clock_max,omitzero"` // MHz, slow tier

	ClockEvents ClockEvents `json:"clock_events,omitzero"`

	// PCIe: throughput in bytes/s, link gen/width, replay counter (cumulative).
	PCIeRx       Metric `json:"pcie_rx,omitzero"`
	PCIeTx       Metric `json:"pcie_tx,omitzero"`
	PCIeGen      Metric `json:"pcie_gen,omitzero"`
	PCIeWidth    Metric `json:"pcie_width,omitzero"`
	PCIeGenMax   Metric `json:"pcie_gen_max,omitzero"`
	PCIeWidthMax Metric `json:"pcie_width_max,omitzero"`
	PCIeReplays  Metric `json:"pcie_replays,omitzero"`

	// Health (slow tier).
	ECCUncorrected Metric `json:"ecc_uncorrected,omitzero"` // volatile, count
	ECCCorrected   Metric `json:"ecc_corrected,omitzero"`   // volatile, count
	RemapPending   bool   `json:"remap_pending,omitempty"`
	RemapFailed    bool   `json:"remap_failed,omitempty"`
	// InfoROMCorrupt: nvidia-smi warned that the board's infoROM (where
	// the driver keeps its ECC and retired-page records) is corrupted.
	InfoROMCorrupt bool   `json:"inforom_corrupt,omitempty"`
	RemappedRows   Metric `json:"remapped_rows,omitzero"` // both kinds
	// The rows remapped for correctable and for uncorrectable errors
	// (nvmlDeviceGetRemappedRows; n/a in recordings made before the split).
	RemappedCorrectable   Metric `json:"remapped_correctable,omitzero"`
	RemappedUncorrectable Metric `json:"remapped_uncorrectable,omitzero"`
	// VGPULicense is 1 while a vGPU licence is held, 0 without one or on a
	// GPU that takes none (bare metal), as DCGM's VGPU_LICENSE_STATUS.
	VGPULicense Metric   `json:"vgpu_license,omitzero"`
	Persistence string   `json:"persistence,omitempty"`  // "on" | "off"
	ComputeMode string   `json:"compute_mode,omitempty"` // "default" | "exclusive_process" | "prohibited"
	MIG         bool     `json:"mig,omitempty"`
	NVLinks     []NVLink `json:"nvlinks,omitempty"`
	CPUAffinity string   `json:"cpu_affinity,omitempty"` // e.g. "0-55,112-167"
	NUMANode    Metric   `json:"numa_node,omitzero"`

	// MIGDevices are the instances of a MIG-enabled GPU (fast tier).
	MIGDevices []MIGDevice `json:"mig_devices,omitempty"`

	// FabricState / FabricStatus are the GPU's NVLink fabric registration
	// on NVSwitch systems, as nvidia-smi -q names them ("In Progress",
	// "Completed"; "Success" or an error); "" where the input does not say.
	FabricState  string `json:"fabric_state,omitempty"`
	FabricStatus string `json:"fabric_status,omitempty"`
	// FabricHealth is -q's Fabric / Health / Summary ("Healthy",
	// "Unhealthy", "Limited Capacity"; newer drivers on NVLink fabrics),
	// FabricHealthWhy its sub-fields not in their healthy state
	// ("Bandwidth: Degraded; Route Unhealthy: True"); "" where not shown.
	FabricHealth    string `json:"fabric_health,omitempty"`
	FabricHealthWhy string `json:"fabric_health_why,omitempty"`

	// Virtualization is -q's "Virtualization Mode" ("VGPU" inside a vGPU
	// guest, "Host VGPU" on its host, "Pass-Through", "None"); License a
	// guest's vGPU licence status ("Licensed ...", "Unlicensed (Restricted)");
	// "" where the input does not say. VGPUs are the vGPUs a host runs on
	// this GPU (nvidia-smi vgpu): VMs' devices, not GPUs of the node.
	Virtualization string `json:"virtualization,omitempty"`
	License        string `json:"license,omitempty"`
	VGPUs          []VGPU `json:"vgpus,omitempty"`

	// Xid events delivered since the previous snapshot.
	Xids []Xid `json:"xids,omitempty"`

	Procs []GPUProc `json:"procs,omitempty"`

	// NA says why a field is n/a, keyed by its JSON name: "not supported",
	// "no permission", "needs Hopper or newer (GPM)", or an error text.
	NA map[string]string `json:"na,omitempty"`
}

// ReasonMIG is the NA reason of the readings NVML does not offer on a
// MIG-enabled GPU (util, mem_util, proc_util), shared by the NVML reader
// and the simulator's truth.
const ReasonMIG = "not available with MIG enabled"

// MIGDevice is one MIG instance (a GPU instance plus a compute instance) of a
// MIG-enabled GPU. Device-level GPU-Util and per-process utilisation are not
// available with MIG enabled; memory, processes and GPM are per instance.
type MIGDevice struct {
	Index           int    `json:"index"`               // MIG device index under the parent
	GPUInstance     int    `json:"gpu_instance"`        // GPU instance id
	ComputeInstance int    `json:"compute_instance"`    // compute instance id
	UUID            string `json:"uuid,omitempty"`      // "MIG-..."
	Profile         string `json:"profile,omitempty"`   // e.g. "3g.71gb"
	SMSlices        int    `json:"sm_slices,omitempty"` // compute slices of 7 (H100/H200/A100)
	MemUsed         Metric `json:"mem_used,omitzero"`   // bytes
	MemTotal        Metric `json:"mem_total,omitzero"`  // bytes
	// GPM per instance (Hopper and newer), percent 0-100.
	SMActive     Metric    `json:"sm_active,omitzero"`
	TensorActive Metric    `json:"tensor_active,omitzero"`
	DRAMActive   Metric    `json:"dram_active,omitzero"`
	Procs        []GPUProc `json:"procs,omitempty"`
}

// NVLink is one link's state and error counters (cumulative).
type NVLink struct {
	Link      int    `json:"link"`
	Active    bool   `json:"active"`
	RemoteBus string `json:"remote_bus,omitempty"`
	Replay    uint64 `json:"replay,omitempty"`
	Recovery  uint64 `json:"recovery,omitempty"`
	CRC       uint64 `json:"crc,omitempty"`
}

// Xid is one driver-reported error event.
type Xid struct {
	Time time.Time `json:"time"`
	Code uint64    `json:"code"`
}

// GPUProc is a process NVML reports on a GPU, joined with host data.
type GPUProc struct {
	PID     int    `json:"pid"`
	Type    string `json:"type"`              // "C" compute, "G" graphics, "C+G"
	MemUsed Metric `json:"mem_used,omitzero"` // bytes
	SMUtil  Metric `json:"sm_util,omitzero"`  // percent, from GetProcessUtilization
	MemUtil Metric `json:"mem_util,omitzero"`
	// Host-side data; nil when the PID is not visible here (another PID
	// namespace) or the source has no host data. Not in JSON: it is the
	// same value as Host.Procs[PID], and JoinProcs restores it on read.
	Host *Proc `json:"-"`
}

// Host is the machine around the GPUs.
type Host struct {
	CPUs      []float64 `json:"cpus"`            // per-core busy percent
	CPU       Metric    `json:"cpu,omitzero"`    // all cores, percent
	IOWait    Metric    `json:"iowait,omitzero"` // percent of CPU time
	Load1     Metric    `json:"load1,omitzero"`
	Load5     Metric    `json:"load5,omitzero"`
	Load15    Metric    `json:"load15,omitzero"`
	MemTotal  Metric    `json:"mem_total,omitzero"` // bytes
	MemUsed   Metric    `json:"mem_used,omitzero"`
	SwapTotal Metric    `json:"swap_total,omitzero"`
	SwapUsed  Metric    `json:"swap_used,omitzero"`
	DiskRead  Metric    `json:"disk_read,omitzero"`  // bytes/s
	DiskWrite Metric    `json:"disk_write,omitzero"` // bytes/s
	NetRx     Metric    `json:"net_rx,omitzero"`     // bytes/s
	NetTx     Metric    `json:"net_tx,omitzero"`     // bytes/s
	// Procs holds the GPU processes and their descendants, keyed by PID.
	Procs map[int]*Proc `json:"procs,omitempty"`
	// ForeignPIDs is set when NVML reported PIDs this PID namespace lacks
	// (gpuscope inside a container).
	ForeignPIDs bool `json:"foreign_pids,omitempty"`
}

// Scalars is a copy of h without its per-core figures and its process
// table: what the diagnosis's window and the chart history keep of a host
// that is no longer the newest (docs/benchmarks.md, "The diagnosis window:
// hosts kept as figures").
func (h *Host) Scalars() *Host {
	s := *h
	s.CPUs, s.Procs = nil, nil
	return &s
}

// Proc is one host process (a GPU process or one of its children).
type Proc struct {
	PID       int       `json:"pid"`
	PPID      int       `json:"ppid"`
	User      string    `json:"user,omitempty"`
	Name      string    `json:"name,omitempty"`
	Cmdline   string    `json:"cmdline,omitempty"`
	State     string    `json:"state,omitempty"` // "R", "S", "D" ...
	CPU       Metric    `json:"cpu,omitzero"`    // percent of one core
	RSS       Metric    `json:"rss,omitzero"`    // bytes
	Threads   int       `json:"threads,omitempty"`
	Start     time.Time `json:"start,omitzero"`
	Container string    `json:"container,omitempty"` // id from the cgroup
	// PodUID is the Kubernetes pod's UID when the cgroup path shows one
	// (kubepods…pod<uid>), with dashes as the API spells it.
	PodUID string `json:"pod_uid,omitempty"`
	// Pod names the Kubernetes container the process runs in, where the
	// kubelet's pod-resources API allocated the process's GPU to one
	// (Sampler.PodOf); zero elsewhere.
	Pod      Pod   `json:"pod,omitzero"`
	Children []int `json:"children,omitempty"` // child PIDs (DataLoader workers)
}

// Pod is a container of a Kubernetes pod, as the kubelet names it.
type Pod struct {
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	Container string `json:"container,omitempty"`
}

// Topology is the GPU×GPU link matrix that `nvidia-smi topo -m` prints.
type Topology struct {
	// Links[i][j] is "X", "NV18", "PIX", "PXB", "PHB", "NODE" or "SYS".
	Links [][]string `json:"links"`
}
