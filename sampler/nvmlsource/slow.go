package nvmlsource

import (
	"strconv"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/nvmlarch"
)

// affinityCPUs is how many logical CPUs GetCpuAffinity is asked about
// (1024 covers any current two-socket server; the mask costs
// 8 bytes per 64 CPUs).
const affinityCPUs = 1024

// readSlow reads identity, limits and health into g.slow, replacing the
// previous slow snapshot (published snapshots keep the old one).
func (s *Source) readSlow(g *gpuReader) {
	d := g.dev
	sl := sampler.GPU{Index: g.index}
	read(g, cName, d.GetName, func(v string) { sl.Name = v })
	read(g, cUUID, d.GetUUID, func(v string) { sl.UUID = v })
	read(g, cPCI, d.GetPciInfo, func(p nvml.PciInfo) { sl.BusID = cString(p.BusId[:]) })
	read(g, cArch, d.GetArchitecture, func(a nvml.DeviceArchitecture) { sl.Arch = nvmlarch.Name(a) })
	readMetric(g, cSMClockMax, arg(d.GetMaxClockInfo, nvml.CLOCK_SM), &sl.SMClockMax)
	readMetric(g, cMemClockMax, arg(d.GetMaxClockInfo, nvml.CLOCK_MEM), &sl.MemClockMax)
	readMetric(g, cTempSlowdown, arg(d.GetTemperatureThreshold, nvml.TEMPERATURE_THRESHOLD_SLOWDOWN), &sl.TempSlowdown)
	readMetric(g, cPCIeGenMax, d.GetMaxPcieLinkGeneration, &sl.PCIeGenMax)
	readMetric(g, cPCIeWidthMax, d.GetMaxPcieLinkWidth, &sl.PCIeWidthMax)
	readMetric(g, cReplays, d.GetPcieReplayCounter, &sl.PCIeReplays)
	read(g, cVirt, d.GetVirtualizationMode, func(m nvml.GpuVirtualizationMode) { g.vgpuGuest = m == nvml.GPU_VIRTUALIZATION_MODE_VGPU })
	readHealth(g, &sl)
	readLinks(g, &sl)
	if g.lost && g.slow.UUID != "" {
		return // lost mid-read: keep the last complete identity
	}
	g.slow = sl
}

// readHealth reads ECC, row remapping, modes and CPU/NUMA affinity.
func readHealth(g *gpuReader, sl *sampler.GPU) {
	d := g.dev
	readMetric(g, cECCUncorrected, args(d.GetTotalEccErrors, nvml.MEMORY_ERROR_TYPE_UNCORRECTED, nvml.VOLATILE_ECC), &sl.ECCUncorrected)
	readMetric(g, cECCCorrected, args(d.GetTotalEccErrors, nvml.MEMORY_ERROR_TYPE_CORRECTED, nvml.VOLATILE_ECC), &sl.ECCCorrected)
	if g.vgpuGuest {
		g.note(cRemap, reasonVGPU)
	} else if g.want(cRemap) { // five results: not read's shape
		if corr, unc, pending, failed, r := d.GetRemappedRows(); g.ok(cRemap, r) {
			sl.RemappedRows = some(corr + unc)
			sl.RemappedCorrectable, sl.RemappedUncorrectable = some(corr), some(unc)
			sl.RemapPending, sl.RemapFailed = pending, failed
		}
	}
	read(g, cVGPULicense, d.GetGridLicensableFeatures, func(f nvml.GridLicensableFeatures) {
		if sl.VGPULicense = vgpuLicense(f); !sl.VGPULicense.OK {
			g.note(cVGPULicense, reasonNotSupported)
		}
	})
	read(g, cPersistence, d.GetPersistenceMode, func(v nvml.EnableState) {
		sl.Persistence = "off"
		if v == nvml.FEATURE_ENABLED {
			sl.Persistence = "on"
		}
	})
	read(g, cComputeMode, d.GetComputeMode, func(v nvml.ComputeMode) { sl.ComputeMode = computeModeName(v) })
	if g.want(cMIG) { // three results
		if cur, _, r := d.GetMigMode(); g.ok(cMIG, r) {
			sl.MIG = cur == nvml.DEVICE_MIG_ENABLE
		}
	}
	read(g, cAffinity, arg(d.GetCpuAffinity, affinityCPUs), func(words []uint) { sl.CPUAffinity = cpuList(words) })
	readMetric(g, cNUMA, d.GetNumaNodeId, &sl.NUMANode)
}

// readLinks reads every NVLink's state, peer and error counters. Link 0
// answering NOT_SUPPORTED means a GPU without NVLink; a later link that
// errs simply does not exist on this GPU.
func readLinks(g *gpuReader, sl *sampler.GPU) {
	if !g.want(cNVLink) {
		return
	}
	d := g.dev
	g.switchLinks = 0
	var links []sampler.NVLink
	for l := range nvml.NVLINK_MAX_LINKS {
		state, r := d.GetNvLinkState(l)
		if r == nvml.ERROR_GPU_IS_LOST || (l == 0 && r != nvml.SUCCESS) {
			g.ok(cNVLink, r)
			return
		}
		if r != nvml.SUCCESS {
			continue
		}
		lk := sampler.NVLink{Link: l, Active: state == nvml.FEATURE_ENABLED}
		if lk.Active {
			if p, r := d.GetNvLinkRemotePciInfo(l); r == nvml.SUCCESS {
				lk.RemoteBus = cString(p.BusId[:])
			}
			lk.Replay = linkCounter(d, l, nvml.NVLINK_ERROR_DL_REPLAY)
			lk.Recovery = linkCounter(d, l, nvml.NVLINK_ERROR_DL_RECOVERY)
			lk.CRC = linkCounter(d, l, nvml.NVLINK_ERROR_DL_CRC_FLIT)
			if !g.remoteTypeNA {
				t, r := d.GetNvLinkRemoteDeviceType(l)
				switch {
				case r == nvml.SUCCESS && t == nvml.NVLINK_DEVICE_TYPE_SWITCH:
					g.switchLinks++
				case r == nvml.ERROR_NOT_SUPPORTED || r == nvml.ERROR_FUNCTION_NOT_FOUND:
					g.remoteTypeNA = true
				}
			}
		}
		links = append(links, lk)
	}
	sl.NVLinks = links
}

// vgpuLicense reads the licence state as DCGM does (VGPU_LICENSE_STATUS): 0
// on a GPU that takes no licence, else whether the vGPU feature's licence
// is held; n/a when the GPU lists no vGPU feature.
func vgpuLicense(f nvml.GridLicensableFeatures) sampler.Metric {
	if f.IsGridLicenseSupported == 0 {
		return sampler.Some(0)
	}
	for _, ft := range f.GridLicensableFeatures[:min(int(f.LicensableFeaturesCount), len(f.GridLicensableFeatures))] {
		if ft.FeatureCode == uint32(nvml.GRID_LICENSE_FEATURE_CODE_VGPU) {
			if ft.FeatureState > 0 {
				return sampler.Some(1)
			}
			return sampler.Some(0)
		}
	}
	return sampler.NA
}

// linkCounter is 0 when the counter is unavailable (the counters are plain
// integers in the snapshot; only their increase matters).
func linkCounter(d Device, l int, c nvml.NvLinkErrorCounter) uint64 {
	v, r := d.GetNvLinkErrorCounter(l, c)
	if r != nvml.SUCCESS {
		return 0
	}
	return v
}

// cString turns NVML's NUL-terminated char array into a string.
func cString(b []int8) string {
	n := 0
	for n < len(b) && b[n] != 0 {
		n++
	}
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(b[i])
	}
	return string(out)
}

// cpuList formats a CPU bitmask (64 CPUs per word) as "0-55,112-167".
func cpuList(words []uint) string {
	var buf []byte
	const bits = 64
	for cpu, n := 0, len(words)*bits; cpu < n; {
		if words[cpu/bits]&(1<<(cpu%bits)) == 0 {
			cpu++
			continue
		}
		start := cpu
		for cpu < n && words[cpu/bits]&(1<<(cpu%bits)) != 0 {
			cpu++
		}
		if len(buf) > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(start), 10)
		if cpu-1 > start {
			buf = append(buf, '-')
			buf = strconv.AppendInt(buf, int64(cpu-1), 10)
		}
	}
	return string(buf)
}

func computeModeName(m nvml.ComputeMode) string {
	switch m {
	case nvml.COMPUTEMODE_DEFAULT:
		return "default"
	case nvml.COMPUTEMODE_EXCLUSIVE_THREAD:
		return "exclusive_thread"
	case nvml.COMPUTEMODE_PROHIBITED:
		return "prohibited"
	case nvml.COMPUTEMODE_EXCLUSIVE_PROCESS:
		return "exclusive_process"
	}
	return "unknown"
}
