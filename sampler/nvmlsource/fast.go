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
	if g.want(cTemp) {
		if v, r := d.GetTemperature(nvml.TEMPERATURE_GPU); g.ok(cTemp, r) {
			out.Temp = some(v)
		}
	}
	if g.want(cPower) {
		if v, r := d.GetPowerUsage(); g.ok(cPower, r) {
			out.Power = sampler.Some(float64(v) / 1000) // mW → W
		}
	}
	if g.want(cPowerLimit) {
		if v, r := d.GetEnforcedPowerLimit(); g.ok(cPowerLimit, r) {
			out.PowerLimit = sampler.Some(float64(v) / 1000)
		}
	}
	if g.want(cSMClock) {
		if v, r := d.GetClockInfo(nvml.CLOCK_SM); g.ok(cSMClock, r) {
			out.SMClock = some(v)
		}
	}
	if g.want(cMemClock) {
		if v, r := d.GetClockInfo(nvml.CLOCK_MEM); g.ok(cMemClock, r) {
			out.MemClock = some(v)
		}
	}
	if g.want(cClockEvents) {
		if v, r := d.GetCurrentClocksEventReasons(); g.ok(cClockEvents, r) {
			out.ClockEvents = sampler.ClockEvents{Mask: v, OK: true}
		}
	}
	if g.want(cFan) {
		if v, r := d.GetFanSpeed(); g.ok(cFan, r) {
			out.Fan = some(v)
		}
	}
	if g.want(cPState) {
		if v, r := d.GetPerformanceState(); g.ok(cPState, r) {
			if v == nvml.PSTATE_UNKNOWN {
				g.note(cPState, "unknown")
			} else {
				out.PState = some(uint32(v))
			}
		}
	}
	if g.want(cPCIeRx) {
		if v, r := d.GetPcieThroughput(nvml.PCIE_UTIL_RX_BYTES); g.ok(cPCIeRx, r) {
			out.PCIeRx = some(uint64(v) * pcieUnit)
		}
	}
	if g.want(cPCIeTx) {
		if v, r := d.GetPcieThroughput(nvml.PCIE_UTIL_TX_BYTES); g.ok(cPCIeTx, r) {
			out.PCIeTx = some(uint64(v) * pcieUnit)
		}
	}
	if g.want(cPCIeGen) {
		if v, r := d.GetCurrPcieLinkGeneration(); g.ok(cPCIeGen, r) {
			out.PCIeGen = some(v)
		}
	}
	if g.want(cPCIeWidth) {
		if v, r := d.GetCurrPcieLinkWidth(); g.ok(cPCIeWidth, r) {
			out.PCIeWidth = some(v)
		}
	}
	if g.want(cEnc) {
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
	s.readMIG(g, out, now)
}

// readMemory prefers GetMemoryInfo_v2 (used memory without the driver's
// reserve, as nvidia-smi shows it) and falls back to GetMemoryInfo on
// drivers without it.
func readMemory(g *gpuReader, out *sampler.GPU) {
	if g.lost {
		return
	}
	if !g.skip[cMemV2] {
		m, r := g.dev.GetMemoryInfo_v2()
		switch r {
		case nvml.SUCCESS:
			out.MemUsed, out.MemTotal = some(m.Used), some(m.Total)
			return
		case nvml.ERROR_NOT_SUPPORTED, nvml.ERROR_FUNCTION_NOT_FOUND, nvml.ERROR_ARGUMENT_VERSION_MISMATCH:
			g.skip[cMemV2] = true // fall back below, silently
		default:
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
