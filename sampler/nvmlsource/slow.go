package nvmlsource

import (
	"strconv"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/nvmlarch"
)

// affinityCPUs is how many logical CPUs GetCpuAffinity is asked about
// (chosen here: 1024 covers any current two-socket server; the mask costs
// 8 bytes per 64 CPUs).
const affinityCPUs = 1024

// readSlow reads identity, limits and health into g.slow, replacing the
// previous slow snapshot (published snapshots keep the old one).
func (s *Source) readSlow(g *gpuReader) {
	d := g.dev
	sl := sampler.GPU{Index: g.index}
	if g.want(cName) {
		if v, r := d.GetName(); g.ok(cName, r) {
			sl.Name = v
		}
	}
	if g.want(cUUID) {
		if v, r := d.GetUUID(); g.ok(cUUID, r) {
			sl.UUID = v
		}
	}
	if g.want(cPCI) {
		if p, r := d.GetPciInfo(); g.ok(cPCI, r) {
			sl.BusID = cString(p.BusId[:])
		}
	}
	if g.want(cArch) {
		if a, r := d.GetArchitecture(); g.ok(cArch, r) {
			sl.Arch = nvmlarch.Name(a)
		}
	}
	if g.want(cSMClockMax) {
		if v, r := d.GetMaxClockInfo(nvml.CLOCK_SM); g.ok(cSMClockMax, r) {
			sl.SMClockMax = some(v)
		}
	}
	if g.want(cMemClockMax) {
		if v, r := d.GetMaxClockInfo(nvml.CLOCK_MEM); g.ok(cMemClockMax, r) {
			sl.MemClockMax = some(v)
		}
	}
	if g.want(cTempSlowdown) {
		if v, r := d.GetTemperatureThreshold(nvml.TEMPERATURE_THRESHOLD_SLOWDOWN); g.ok(cTempSlowdown, r) {
			sl.TempSlowdown = some(v)
		}
	}
	if g.want(cPCIeGenMax) {
		if v, r := d.GetMaxPcieLinkGeneration(); g.ok(cPCIeGenMax, r) {
			sl.PCIeGenMax = some(v)
		}
	}
	if g.want(cPCIeWidthMax) {
		if v, r := d.GetMaxPcieLinkWidth(); g.ok(cPCIeWidthMax, r) {
			sl.PCIeWidthMax = some(v)
		}
	}
	if g.want(cReplays) {
		if v, r := d.GetPcieReplayCounter(); g.ok(cReplays, r) {
			sl.PCIeReplays = some(v)
		}
	}
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
	if g.want(cECCUncorrected) {
		if v, r := d.GetTotalEccErrors(nvml.MEMORY_ERROR_TYPE_UNCORRECTED, nvml.VOLATILE_ECC); g.ok(cECCUncorrected, r) {
			sl.ECCUncorrected = some(v)
		}
	}
	if g.want(cECCCorrected) {
		if v, r := d.GetTotalEccErrors(nvml.MEMORY_ERROR_TYPE_CORRECTED, nvml.VOLATILE_ECC); g.ok(cECCCorrected, r) {
			sl.ECCCorrected = some(v)
		}
	}
	if g.want(cRemap) {
		if corr, unc, pending, failed, r := d.GetRemappedRows(); g.ok(cRemap, r) {
			sl.RemappedRows = some(corr + unc)
			sl.RemapPending, sl.RemapFailed = pending, failed
		}
	}
	if g.want(cPersistence) {
		if v, r := d.GetPersistenceMode(); g.ok(cPersistence, r) {
			sl.Persistence = "off"
			if v == nvml.FEATURE_ENABLED {
				sl.Persistence = "on"
			}
		}
	}
	if g.want(cComputeMode) {
		if v, r := d.GetComputeMode(); g.ok(cComputeMode, r) {
			sl.ComputeMode = computeModeName(v)
		}
	}
	if g.want(cMIG) {
		if cur, _, r := d.GetMigMode(); g.ok(cMIG, r) {
			sl.MIG = cur == nvml.DEVICE_MIG_ENABLE
		}
	}
	if g.want(cAffinity) {
		if words, r := d.GetCpuAffinity(affinityCPUs); g.ok(cAffinity, r) {
			sl.CPUAffinity = cpuList(words)
		}
	}
	if g.want(cNUMA) {
		if v, r := d.GetNumaNodeId(); g.ok(cNUMA, r) {
			sl.NUMANode = some(v)
		}
	}
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

// linkCounter is 0 when the counter is unavailable (the counters are plain
// integers in the snapshot; only their increase matters).
func linkCounter(d nvml.Device, l int, c nvml.NvLinkErrorCounter) uint64 {
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
