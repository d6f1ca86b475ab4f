package fakenvml

import (
	"math"
	"strings"
	"sync"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// device is one fake GPU: this file, mig.go, device_slow.go and gpm.go
// answer every call nvmlsource makes. The embedded nil nvml.Device makes
// any other call panic, which flags a missing override in tests. (go-nvml's
// mock server is not embedded: it would link its moq mocks, ~0.85 MB of
// binary, into the demo; docs/benchmarks.md "What each dependency costs".)
type device struct {
	nvml.Device
	f   *Fake
	idx int

	mu        sync.Mutex // guards the process-utilisation sample buffer and the NVLink counters
	utilCalls uint64
	prevUtil  []nvml.ProcessUtilizationSample
	lastSeen  uint64
	// NVLink data counters, KiB, and the calls that advanced them (fieldvalues.go).
	nvlRx, nvlTx float64
	nvlCalls     int64
}

// read counts the call and returns the truth for this GPU, or the fault.
func (d *device) read(m method) (*sampler.GPU, nvml.Return) {
	if r := d.f.enter(d.idx, m); r != nvml.SUCCESS {
		return nil, r
	}
	return d.f.gpu(d.idx), nvml.SUCCESS
}

// u32 answers a single reading scaled to NVML's unit. Not inlined: ~20
// calls, each a copy (the binary's room; docs/benchmarks.md, "The
// dashboard at 100 ms, again").
//
//go:noinline
func (d *device) u32(m method, field string, pick func(*sampler.GPU) sampler.Metric, scale float64) (uint32, nvml.Return) {
	v, r := d.reading(m, field, pick, scale)
	return uint32(v), r
}

// reading is a single reading scaled to NVML's unit and rounded to its
// integer, or the code NVML answers when the truth has it n/a.
func (d *device) reading(m method, field string, pick func(*sampler.GPU) sampler.Metric, scale float64) (float64, nvml.Return) {
	g, r := d.read(m)
	if r != nvml.SUCCESS {
		return 0, r
	}
	v := pick(g)
	if !v.OK {
		return 0, naReturn(g, field)
	}
	return round(v.V * scale), nvml.SUCCESS
}

func (d *device) GetUtilizationRates() (nvml.Utilization, nvml.Return) {
	g, r := d.read(mGetUtilizationRates)
	if r != nvml.SUCCESS {
		return nvml.Utilization{}, r
	}
	if !g.Util.OK {
		return nvml.Utilization{}, naReturn(g, "util")
	}
	return nvml.Utilization{Gpu: uint32(round(g.Util.V)), Memory: uint32(round(g.MemUtil.V))}, nvml.SUCCESS
}

func (d *device) GetMemoryInfo_v2() (nvml.Memory_v2, nvml.Return) {
	g, r := d.read(mGetMemoryInfov2)
	if r != nvml.SUCCESS {
		return nvml.Memory_v2{}, r
	}
	if !g.MemTotal.OK {
		return nvml.Memory_v2{}, naReturn(g, "mem_total")
	}
	total, used, reserved := uint64(g.MemTotal.V), uint64(g.MemUsed.V), uint64(g.MemReserved.Or(0))
	return nvml.Memory_v2{Total: total, Reserved: reserved, Used: used, Free: total - min(used+reserved, total)}, nvml.SUCCESS
}

func (d *device) GetMemoryInfo() (nvml.Memory, nvml.Return) {
	g, r := d.read(mGetMemoryInfo)
	if r != nvml.SUCCESS {
		return nvml.Memory{}, r
	}
	if !g.MemTotal.OK {
		return nvml.Memory{}, naReturn(g, "mem_total")
	}
	total, used := uint64(g.MemTotal.V), uint64(g.MemUsed.V)
	return nvml.Memory{Total: total, Used: used, Free: total - min(used, total)}, nvml.SUCCESS
}

func (d *device) GetTemperature(sensor nvml.TemperatureSensors) (uint32, nvml.Return) {
	if sensor != nvml.TEMPERATURE_GPU {
		d.f.enter(d.idx, mGetTemperature)
		return 0, nvml.ERROR_INVALID_ARGUMENT
	}
	return d.u32(mGetTemperature, "temp", func(g *sampler.GPU) sampler.Metric { return g.Temp }, 1)
}

func (d *device) GetPowerUsage() (uint32, nvml.Return) {
	return d.u32(mGetPowerUsage, "power", func(g *sampler.GPU) sampler.Metric { return g.Power }, 1000) // W → mW
}

func (d *device) GetEnforcedPowerLimit() (uint32, nvml.Return) {
	return d.u32(mGetEnforcedPowerLimit, "power_limit", func(g *sampler.GPU) sampler.Metric { return g.PowerLimit }, 1000)
}

func (d *device) GetClockInfo(clock nvml.ClockType) (uint32, nvml.Return) {
	switch clock {
	case nvml.CLOCK_SM:
		return d.u32(mGetClockInfo, "sm_clock", func(g *sampler.GPU) sampler.Metric { return g.SMClock }, 1)
	case nvml.CLOCK_MEM:
		return d.u32(mGetClockInfo, "mem_clock", func(g *sampler.GPU) sampler.Metric { return g.MemClock }, 1)
	}
	d.f.enter(d.idx, mGetClockInfo)
	return 0, nvml.ERROR_NOT_SUPPORTED
}

func (d *device) GetCurrentClocksEventReasons() (uint64, nvml.Return) {
	return d.clockEvents(mGetCurrentClocksEventReasons)
}

// clockEvents answers the clock-event mask, under either of its names.
func (d *device) clockEvents(m method) (uint64, nvml.Return) {
	g, r := d.read(m)
	if r != nvml.SUCCESS {
		return 0, r
	}
	if !g.ClockEvents.OK {
		return 0, naReturn(g, "clock_events")
	}
	return g.ClockEvents.Mask, nvml.SUCCESS
}

func (d *device) GetFanSpeed() (uint32, nvml.Return) {
	return d.u32(mGetFanSpeed, "fan", func(g *sampler.GPU) sampler.Metric { return g.Fan }, 1)
}

func (d *device) GetPerformanceState() (nvml.Pstates, nvml.Return) {
	v, r := d.u32(mGetPerformanceState, "pstate", func(g *sampler.GPU) sampler.Metric { return g.PState }, 1)
	return nvml.Pstates(v), r
}

func (d *device) GetPcieThroughput(counter nvml.PcieUtilCounter) (uint32, nvml.Return) {
	const toKB = 1.0 / 1024 // NVML reports PCIe throughput in KB/s (nvml.h: "1KB granularity")
	switch counter {
	case nvml.PCIE_UTIL_RX_BYTES:
		return d.u32(mGetPcieThroughput, "pcie_rx", func(g *sampler.GPU) sampler.Metric { return g.PCIeRx }, toKB)
	case nvml.PCIE_UTIL_TX_BYTES:
		return d.u32(mGetPcieThroughput, "pcie_tx", func(g *sampler.GPU) sampler.Metric { return g.PCIeTx }, toKB)
	}
	d.f.enter(d.idx, mGetPcieThroughput)
	return 0, nvml.ERROR_INVALID_ARGUMENT
}

func (d *device) GetCurrPcieLinkGeneration() (int, nvml.Return) {
	v, r := d.u32(mGetCurrPcieLinkGeneration, "pcie_gen", func(g *sampler.GPU) sampler.Metric { return g.PCIeGen }, 1)
	return int(v), r
}

func (d *device) GetCurrPcieLinkWidth() (int, nvml.Return) {
	v, r := d.u32(mGetCurrPcieLinkWidth, "pcie_width", func(g *sampler.GPU) sampler.Metric { return g.PCIeWidth }, 1)
	return int(v), r
}

// samplingPeriodUs is what the encoder/decoder calls report as their window
// (NVML's usual 167 ms sampling period).
const samplingPeriodUs = 167000

func (d *device) GetEncoderUtilization() (uint32, uint32, nvml.Return) {
	v, r := d.u32(mGetEncoderUtilization, "enc_util", func(g *sampler.GPU) sampler.Metric { return g.EncUtil }, 1)
	return v, samplingPeriodUs, r
}

func (d *device) GetDecoderUtilization() (uint32, uint32, nvml.Return) {
	v, r := d.u32(mGetDecoderUtilization, "dec_util", func(g *sampler.GPU) sampler.Metric { return g.DecUtil }, 1)
	return v, samplingPeriodUs, r
}

func (d *device) GetComputeRunningProcesses() ([]nvml.ProcessInfo, nvml.Return) {
	return d.processes(mGetComputeRunningProcesses, "C")
}

func (d *device) GetGraphicsRunningProcesses() ([]nvml.ProcessInfo, nvml.Return) {
	return d.processes(mGetGraphicsRunningProcesses, "G")
}

// processes lists the truth's processes whose Type contains kind.
func (d *device) processes(m method, kind string) ([]nvml.ProcessInfo, nvml.Return) {
	g, r := d.read(m)
	if r != nvml.SUCCESS {
		return nil, r
	}
	var out []nvml.ProcessInfo
	for _, p := range g.Procs {
		if !strings.Contains(p.Type, kind) {
			continue
		}
		mem := uint64(math.MaxUint64) // NVML_VALUE_NOT_AVAILABLE
		if p.MemUsed.OK {
			mem = uint64(p.MemUsed.V)
		}
		out = append(out, nvml.ProcessInfo{Pid: uint32(p.PID), UsedGpuMemory: mem})
	}
	return out, nvml.SUCCESS
}

// procUtilEpoch is the first fake CPU timestamp in µs (NVML stamps process
// samples in µs of CPU time): 2023-11-14, any fixed value works.
const procUtilEpoch = 1_700_000_000_000_000

// GetProcessUtilization imitates the driver's sample buffer: every call adds
// two samples per busy process — one half a second ago with other values,
// and one now with the truth's — in an order that alternates per process,
// and returns every buffered sample newer than lastSeen, including the
// previous call's. A reader must therefore pass lastSeen and keep the newest
// sample per PID. With nothing newer it answers NOT_FOUND, as NVML does.
func (d *device) GetProcessUtilization(lastSeen uint64) ([]nvml.ProcessUtilizationSample, nvml.Return) {
	g, r := d.read(mGetProcessUtilization)
	if r != nvml.SUCCESS {
		return nil, r
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.utilCalls++
	d.lastSeen = lastSeen
	stamp := uint64(procUtilEpoch) + d.utilCalls*1_000_000
	fresh := make([]nvml.ProcessUtilizationSample, 0, 2*len(g.Procs))
	for i, p := range g.Procs {
		if !p.SMUtil.OK && !p.MemUtil.OK {
			continue
		}
		sm, mem := uint32(round(p.SMUtil.V)), uint32(round(p.MemUtil.V))
		now := nvml.ProcessUtilizationSample{Pid: uint32(p.PID), TimeStamp: stamp, SmUtil: sm, MemUtil: mem}
		earlier := nvml.ProcessUtilizationSample{Pid: uint32(p.PID), TimeStamp: stamp - 500_000, SmUtil: (sm + 37) % 101, MemUtil: (mem + 11) % 101}
		if i%2 == 0 {
			fresh = append(fresh, now, earlier)
		} else {
			fresh = append(fresh, earlier, now)
		}
	}
	out := append([]nvml.ProcessUtilizationSample(nil), fresh...)
	for _, s := range d.prevUtil {
		if s.TimeStamp > lastSeen {
			out = append(out, s)
		}
	}
	d.prevUtil = fresh
	if len(out) == 0 {
		return nil, nvml.ERROR_NOT_FOUND
	}
	return out, nvml.SUCCESS
}

// LastSeenArg is the lastSeen timestamp GPU gpu's last GetProcessUtilization
// call passed (tests check that the reader keeps it per GPU).
func (f *Fake) LastSeenArg(gpu int) uint64 {
	if gpu < 0 || gpu >= len(f.devs) {
		return 0
	}
	d := f.devs[gpu]
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lastSeen
}
