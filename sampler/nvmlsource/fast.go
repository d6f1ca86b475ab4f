package nvmlsource

import (
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// pcieUnit: NVML reports PCIe throughput in KB/s (nvml.h NVML_PCIE_UTIL_*:
// "1KB granularity"); the snapshot wants bytes/s.
const pcieUnit = 1024

// readFast fills the per-tick readings into out. It stops at the first
// GPU_IS_LOST (every want() then answers false).
func (s *Source) readFast(g *gpuReader, out *sampler.GPU, now time.Time) {
	d := g.dev
	if out.MIG {
		g.note(cUtil, reasonMIG) // not asked: NVML offers no device util with MIG
	} else if g.want(cUtil) {
		if u, r := d.GetUtilizationRates(); g.ok(cUtil, r) {
			out.Util, out.MemUtil = some(u.Gpu), some(u.Memory)
		}
	}
	readMemory(g, out)
	readMetric(g, cTemp, arg(d.GetTemperature, nvml.TEMPERATURE_GPU), &out.Temp)
	read(g, cPower, d.GetPowerUsage, func(v uint32) { out.Power = sampler.Some(float64(v) / 1000) }) // mW → W
	readEnergy(g, out)
	readMemTemp(g, out)
	read(g, cPowerLimit, d.GetEnforcedPowerLimit, func(v uint32) { out.PowerLimit = sampler.Some(float64(v) / 1000) })
	readMetric(g, cSMClock, arg(d.GetClockInfo, nvml.CLOCK_SM), &out.SMClock)
	readMetric(g, cMemClock, arg(d.GetClockInfo, nvml.CLOCK_MEM), &out.MemClock)
	read(g, cClockEvents, d.GetCurrentClocksEventReasons, func(v uint64) { out.ClockEvents = sampler.ClockEvents{Mask: v, OK: true} })
	readMetric(g, cFan, d.GetFanSpeed, &out.Fan)
	read(g, cPState, d.GetPerformanceState, func(v nvml.Pstates) {
		if v == nvml.PSTATE_UNKNOWN {
			g.note(cPState, "unknown")
		} else {
			out.PState = some(uint32(v))
		}
	})
	read(g, cPCIeRx, arg(d.GetPcieThroughput, nvml.PCIE_UTIL_RX_BYTES), func(v uint32) { out.PCIeRx = some(uint64(v) * pcieUnit) })
	read(g, cPCIeTx, arg(d.GetPcieThroughput, nvml.PCIE_UTIL_TX_BYTES), func(v uint32) { out.PCIeTx = some(uint64(v) * pcieUnit) })
	readMetric(g, cPCIeGen, d.GetCurrPcieLinkGeneration, &out.PCIeGen)
	readMetric(g, cPCIeWidth, d.GetCurrPcieLinkWidth, &out.PCIeWidth)
	if g.want(cEnc) { // value, sampling period: the period is not kept
		if v, _, r := d.GetEncoderUtilization(); g.ok(cEnc, r) {
			out.EncUtil = some(v)
		}
	}
	if g.want(cDec) {
		if v, _, r := d.GetDecoderUtilization(); g.ok(cDec, r) {
			out.DecUtil = some(v)
		}
	}
	readProcs(g, out)
	s.readGPM(g, out, now)
	readNVLinkData(g, out)
	s.readMIG(g, out, now)
}

// readMemory prefers GetMemoryInfo_v2 (used memory without the driver's
// reserve, as nvidia-smi shows it) and falls back to GetMemoryInfo on
// drivers without it, and for a tick where v2 fails. WSL2's v2 answers
// UNKNOWN every time while v1 works: then v1 is used from then on
// (docs/driver-compatibility.md, WSL2).
func readMemory(g *gpuReader, out *sampler.GPU) {
	if g.lost {
		return
	}
	if !g.skip[cMemV2] {
		m, r := g.dev.GetMemoryInfo_v2()
		switch r {
		case nvml.SUCCESS:
			out.MemUsed, out.MemTotal, out.MemReserved = some(m.Used), some(m.Total), some(m.Reserved)
			return
		case nvml.ERROR_NOT_SUPPORTED, nvml.ERROR_FUNCTION_NOT_FOUND, nvml.ERROR_ARGUMENT_VERSION_MISMATCH:
			g.skip[cMemV2] = true // fall back below, silently
		case nvml.ERROR_GPU_IS_LOST:
			g.ok(cMemV2, r)
			return
		default:
			if m, r1 := g.dev.GetMemoryInfo(); r1 == nvml.SUCCESS {
				out.MemUsed, out.MemTotal = some(m.Used), some(m.Total)
				g.skip[cMemV2] = r == nvml.ERROR_UNKNOWN
				return
			}
			g.ok(cMemV2, r)
			return
		}
	}
	if g.want(cMem) {
		if m, r := g.dev.GetMemoryInfo(); g.ok(cMem, r) {
			out.MemUsed, out.MemTotal = some(m.Used), some(m.Total)
		}
	}
}
