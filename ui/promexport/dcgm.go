package promexport

import (
	"math"
	"slices"
	"strconv"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// dcgmLabelNames are dcgm-exporter's labels on every GPU series, spelled as
// its release 4.5.3-4.8.2 spells them (internal/pkg/rendermetrics: gpu,
// UUID, pci_bus_id, device, modelName, Hostname; plus DCGM_FI_DRIVER_VERSION,
// the "label" row of its default counters). Its master after that release
// says "hostname"; Grafana dashboard 12239 and most alert rules use Hostname.
var dcgmLabelNames = []string{"gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname", "DCGM_FI_DRIVER_VERSION"}

// dcgmPodLabelNames add the labels dcgm-exporter adds on Kubernetes, where
// the kubelet says which pod holds the GPU (empty when none does).
var dcgmPodLabelNames = append(dcgmLabelNames[:len(dcgmLabelNames):len(dcgmLabelNames)], "pod", "namespace", "container")

func dcgmLabels(node *sampler.Node, g *sampler.GPU, pods bool) []string {
	l := []string{itoa(g.Index), g.UUID, g.BusID, "nvidia" + itoa(g.Index), g.Name, node.Hostname, node.Driver}
	if pods {
		l = append(l, g.Pod.Name, g.Pod.Namespace, g.Pod.Container)
	}
	return l
}

const mib = 1 << 20

// dcgmMetrics is the dcgm-exporter-compatible set: the fields of its
// etc/default-counters.csv and etc/dcp-metrics-included.csv that gpuscope
// reads, with the same type and unit (MiB, MHz, W, °C, mJ, percent for DEV_*
// utilisation, ratio 0-1 for PROF_*, bytes/s for PROF_*_BYTES). The help
// texts are dcgm-exporter's. docs/metrics.md lists them with the gpuscope
// names; testdata/dcgm-exporter holds the csv they are checked against.
func dcgmMetrics(withPods bool) []gpuMetric {
	labels := dcgmLabelNames
	if withPods {
		labels = dcgmPodLabelNames
	}
	g := func(name, help string, v func(*sampler.GPU, xidCount) (float64, bool)) gpuMetric {
		return gpuMetric{fam: newFamily(name, help, false, labels...), value: v}
	}
	c := func(name, help string, v func(*sampler.GPU, xidCount) (float64, bool)) gpuMetric {
		return gpuMetric{fam: newFamily(name, help, true, labels...), value: v}
	}
	ratio := func(f func(*sampler.GPU) sampler.Metric) func(*sampler.GPU, xidCount) (float64, bool) {
		return scaled(f, 0.01)
	}
	return []gpuMetric{
		g("DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", raw(func(g *sampler.GPU) sampler.Metric { return g.SMClock })),
		g("DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).", raw(func(g *sampler.GPU) sampler.Metric { return g.MemClock })),
		g("DCGM_FI_DEV_MAX_SM_CLOCK", "Maximum supported SM clock (in MHz).", raw(func(g *sampler.GPU) sampler.Metric { return g.SMClockMax })),
		g("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", raw(func(g *sampler.GPU) sampler.Metric { return g.Temp })),
		g("DCGM_FI_DEV_MEMORY_TEMP", "Memory temperature (in C).", raw(func(g *sampler.GPU) sampler.Metric { return g.MemTemp })),
		g("DCGM_FI_DEV_SLOWDOWN_TEMP", "Slowdown temperature (in C).", raw(func(g *sampler.GPU) sampler.Metric { return g.TempSlowdown })),
		g("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", raw(func(g *sampler.GPU) sampler.Metric { return g.Power })),
		c("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "Total energy consumption since boot (in mJ).", scaled(func(g *sampler.GPU) sampler.Metric { return g.Energy }, 1000)),
		g("DCGM_FI_DEV_POWER_MGMT_LIMIT", "Power management limit (in W).", raw(func(g *sampler.GPU) sampler.Metric { return g.PowerLimit })),
		g("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", raw(func(g *sampler.GPU) sampler.Metric { return g.Util })),
		g("DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", raw(func(g *sampler.GPU) sampler.Metric { return g.MemUtil })),
		g("DCGM_FI_DEV_ENC_UTIL", "Encoder utilization (in %).", raw(func(g *sampler.GPU) sampler.Metric { return g.EncUtil })),
		g("DCGM_FI_DEV_DEC_UTIL", "Decoder utilization (in %).", raw(func(g *sampler.GPU) sampler.Metric { return g.DecUtil })),
		g("DCGM_FI_DEV_FAN_SPEED", "Fan speed (in %).", raw(func(g *sampler.GPU) sampler.Metric { return g.Fan })),
		g("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", inMiB(func(g *sampler.GPU) sampler.Metric { return g.MemUsed })),
		g("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", fbFree),
		g("DCGM_FI_DEV_FB_TOTAL", "Framebuffer memory total (in MiB).", inMiB(func(g *sampler.GPU) sampler.Metric { return g.MemTotal })),
		g("DCGM_FI_DEV_FB_RESERVED", "Framebuffer memory reserved (in MiB).", inMiB(func(g *sampler.GPU) sampler.Metric { return g.MemReserved })),
		g("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "Current clock event reasons (bitmask of nvmlClocksEventReason*).", clockMask),
		g("DCGM_FI_DEV_PCIE_LINK_GEN", "PCIe current link generation.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeGen })),
		g("DCGM_FI_DEV_PCIE_LINK_WIDTH", "PCIe current link width.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeWidth })),
		g("DCGM_FI_DEV_PCIE_MAX_LINK_GEN", "PCIe maximum link generation.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeGenMax })),
		g("DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH", "PCIe maximum link width.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeWidthMax })),
		c("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "Total number of PCIe retries.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeReplays })),
		xidErrors(labels),
		c("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "Total number of single-bit volatile ECC errors.", raw(func(g *sampler.GPU) sampler.Metric { return g.ECCCorrected })),
		c("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "Total number of double-bit volatile ECC errors.", raw(func(g *sampler.GPU) sampler.Metric { return g.ECCUncorrected })),
		c("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "Total number of NVLink bandwidth counters for all lanes.", nvlinkBandwidth),
		g("DCGM_FI_DEV_VGPU_LICENSE_STATUS", "vGPU License status", raw(func(g *sampler.GPU) sampler.Metric { return g.VGPULicense })),
		c("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "Number of remapped rows for uncorrectable errors", raw(func(g *sampler.GPU) sampler.Metric { return g.RemappedUncorrectable })),
		c("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "Number of remapped rows for correctable errors", raw(func(g *sampler.GPU) sampler.Metric { return g.RemappedCorrectable })),
		g("DCGM_FI_DEV_ROW_REMAP_PENDING", "Whether remapping of rows is pending.", flag(func(g *sampler.GPU) bool { return g.RemapPending })),
		g("DCGM_FI_DEV_ROW_REMAP_FAILURE", "Whether remapping of rows has failed", flag(func(g *sampler.GPU) bool { return g.RemapFailed })),
		g("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active.", ratio(func(g *sampler.GPU) sampler.Metric { return g.GRActive })),
		g("DCGM_FI_PROF_SM_ACTIVE", "The ratio of cycles an SM has at least 1 warp assigned.", ratio(func(g *sampler.GPU) sampler.Metric { return g.SMActive })),
		g("DCGM_FI_PROF_SM_OCCUPANCY", "The ratio of number of warps resident on an SM.", ratio(func(g *sampler.GPU) sampler.Metric { return g.SMOccupancy })),
		g("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "Ratio of cycles the tensor (HMMA) pipe is active.", ratio(func(g *sampler.GPU) sampler.Metric { return g.TensorActive })),
		g("DCGM_FI_PROF_DRAM_ACTIVE", "Ratio of cycles the device memory interface is active sending or receiving data.", ratio(func(g *sampler.GPU) sampler.Metric { return g.DRAMActive })),
		g("DCGM_FI_PROF_PCIE_TX_BYTES", "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in bytes per second.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeTx })),
		g("DCGM_FI_PROF_PCIE_RX_BYTES", "The rate of data received over the PCIe bus - including both protocol headers and data payloads - in bytes per second.", raw(func(g *sampler.GPU) sampler.Metric { return g.PCIeRx })),
		g("DCGM_FI_PROF_NVLINK_TX_BYTES", "The rate of data transmitted over NVLink, not including protocol headers, in bytes per second.", raw(func(g *sampler.GPU) sampler.Metric { return g.NVLinkTx })),
		g("DCGM_FI_PROF_NVLINK_RX_BYTES", "The rate of data received over NVLink, not including protocol headers, in bytes per second.", raw(func(g *sampler.GPU) sampler.Metric { return g.NVLinkRx })),
	}
}

// inMiB is a byte count in whole MiB, as DCGM divides (integer division).
func inMiB(f func(*sampler.GPU) sampler.Metric) func(*sampler.GPU, xidCount) (float64, bool) {
	return func(g *sampler.GPU, _ xidCount) (float64, bool) { m := f(g); return math.Floor(m.V / mib), m.OK }
}

// fbFree is what NVML's memory info v2 calls free: total less used less the
// driver's reserve (0 where the driver does not say).
func fbFree(g *sampler.GPU, _ xidCount) (float64, bool) {
	if !g.MemUsed.OK || !g.MemTotal.OK {
		return 0, false
	}
	return math.Floor(max(g.MemTotal.V-g.MemUsed.V-g.MemReserved.Or(0), 0) / mib), true
}

// nvlinkBandwidth is DCGM's NVLINK_BANDWIDTH_TOTAL: data received plus sent
// over all links, in KiB/s divided by 1000 (DcgmCacheManager's
// ReadAndCacheNvLinkBandwidth; "MiB/s" in its comment). dcgm-exporter's csv
// calls it a counter although it is a rate; kept so, for drop-in use.
func nvlinkBandwidth(g *sampler.GPU, _ xidCount) (float64, bool) {
	if !g.NVLinkRx.OK || !g.NVLinkTx.OK {
		return 0, false
	}
	return math.Trunc((g.NVLinkRx.V + g.NVLinkTx.V) / 1024 / 1000), true // DCGM truncates
}

// xidErrors is the last Xid's code, labelled as dcgm-exporter labels it:
// err_code, the code again, and err_msg, what it means (gpuscope's
// catalogue names it; dcgm-exporter's own texts for none and unknown).
func xidErrors(gpuLabels []string) gpuMetric {
	labels := append(slices.Clone(gpuLabels), "err_code", "err_msg")
	return gpuMetric{
		fam:   newFamily("DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered.", false, labels...),
		value: func(_ *sampler.GPU, x xidCount) (float64, bool) { return float64(x.last), true },
		extra: func(x xidCount) []string { return []string{strconv.FormatUint(x.last, 10), xidMessage(x.last)} },
	}
}

func xidMessage(code uint64) string {
	if code == 0 {
		return "No Error"
	}
	if x, ok := diagnose.LookupXid(code); ok {
		return x.Name
	}
	return "Unknown Error"
}

func clockMask(g *sampler.GPU, _ xidCount) (float64, bool) {
	return float64(g.ClockEvents.Mask), g.ClockEvents.OK
}
