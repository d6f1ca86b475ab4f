package nvmlsource

import (
	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// call names one NVML query per GPU, so that a NOT_SUPPORTED answer can be
// remembered and the query skipped on later ticks.
type call uint8

const (
	// fast tier
	cUtil call = iota
	cMemV2
	cMem
	cTemp
	cPower
	cPowerLimit
	cSMClock
	cMemClock
	cClockEvents
	cFan
	cPState
	cPCIeRx
	cPCIeTx
	cPCIeGen
	cPCIeWidth
	cEnergy
	cMemTemp // nvmlDeviceGetFieldValues(NVML_FI_DEV_MEMORY_TEMP)
	cEnc
	cDec
	cCompute
	cGraphics
	cProcUtil
	cGPM
	cNVLinkData // NVLink data counters, where GPM gives no NVLink rates
	// slow tier
	cName
	cUUID
	cPCI
	cArch
	cSMClockMax
	cMemClockMax
	cTempSlowdown
	cPCIeGenMax
	cPCIeWidthMax
	cReplays
	cECCUncorrected
	cECCCorrected
	cRemap
	cVGPULicense
	cNVLink
	cPersistence
	cComputeMode
	cMIG
	cMIGDevices
	cAffinity
	cNUMA
	cVirt // virtualization mode: fills no field, decides cRemap
	numCalls
)

// callFields are the GPU JSON field names each call fills; its NA reason is
// recorded under each. A read-only table.
var callFields = [numCalls][]string{
	cUtil: {sampler.NAUtil, sampler.NAMemUtil}, cMemV2: {sampler.NAMemUsed, sampler.NAMemTotal}, cMem: {sampler.NAMemUsed, sampler.NAMemTotal},
	cTemp: {sampler.NATemp}, cPower: {sampler.NAPower}, cPowerLimit: {sampler.NAPowerLimit},
	cSMClock: {sampler.NASMClock}, cMemClock: {sampler.NAMemClock}, cClockEvents: {sampler.NAClockEvents},
	cFan: {sampler.NAFan}, cPState: {sampler.NAPState}, cPCIeRx: {sampler.NAPCIeRx}, cPCIeTx: {sampler.NAPCIeTx},
	cPCIeGen: {sampler.NAPCIeGen}, cPCIeWidth: {sampler.NAPCIeWidth}, cEnergy: {sampler.NAEnergy}, cMemTemp: {sampler.NAMemTemp}, cEnc: {sampler.NAEncUtil}, cDec: {sampler.NADecUtil},
	cCompute: {sampler.NAProcs}, cGraphics: {sampler.NAProcsGraphics}, cProcUtil: {sampler.NAProcUtil},
	cGPM:        {sampler.NASMActive, sampler.NASMOccupancy, sampler.NATensorActive, sampler.NADRAMActive, sampler.NANVLinkRx, sampler.NANVLinkTx, sampler.NAGRActive},
	cNVLinkData: {sampler.NANVLinkRx, sampler.NANVLinkTx},
	cName:       {sampler.NAName}, cUUID: {sampler.NAUUID}, cPCI: {sampler.NABusID}, cArch: {sampler.NAArch},
	cSMClockMax: {sampler.NASMClockMax}, cMemClockMax: {sampler.NAMemClockMax}, cTempSlowdown: {sampler.NATempSlowdown},
	cPCIeGenMax: {sampler.NAPCIeGenMax}, cPCIeWidthMax: {sampler.NAPCIeWidthMax}, cReplays: {sampler.NAPCIeReplays},
	cECCUncorrected: {sampler.NAECCUncorrected}, cECCCorrected: {sampler.NAECCCorrected}, cRemap: {sampler.NARemappedRows, sampler.NARemappedCorr, sampler.NARemappedUncorr},
	cVGPULicense: {sampler.NAVGPULicense}, cNVLink: {sampler.NANVLinks}, cPersistence: {sampler.NAPersistence}, cComputeMode: {sampler.NAComputeMode}, cMIG: {sampler.NAMIG},
	cMIGDevices: {sampler.NAMIGDevices},
	cAffinity:   {sampler.NACPUAffinity}, cNUMA: {sampler.NANUMANode},
}

// NA reasons, as sampler.GPU.NA documents them.
const (
	reasonNotSupported = "not supported"
	// The installed libnvidia-ml does not export the function (an older
	// driver than the call; Guarded answers FUNCTION_NOT_FOUND for it).
	reasonNotInDriver  = "not in this driver version"
	reasonNoPermission = "no permission"
	reasonWarmingUp    = "warming up" // GPM needs two samples (said plainly)
	// reasonVGPU: inside a vGPU guest the host refuses the row-remapping
	// query (logging a kernel warning for each) and GPM takes no samples
	// (docs/driver-compatibility.md).
	reasonVGPU = "not read in a vGPU guest"
)

type naEntry struct{ key, reason string }

// want reports whether call c should be made now; a call cached as not
// supported records its reason instead.
func (g *gpuReader) want(c call) bool {
	if g.lost {
		return false
	}
	if g.skip[c] {
		g.note(c, g.skipReason(c))
		return false
	}
	return true
}

// ok classifies an NVML answer: SUCCESS is true; NOT_SUPPORTED (or a symbol
// an older driver lacks) is cached and noted; NO_PERMISSION and other errors
// are noted for this tick; GPU_IS_LOST marks the GPU lost.
func (g *gpuReader) ok(c call, ret nvml.Return) bool {
	switch ret {
	case nvml.SUCCESS:
		return true
	case nvml.ERROR_NOT_SUPPORTED, nvml.ERROR_FUNCTION_NOT_FOUND, nvml.ERROR_ARGUMENT_VERSION_MISMATCH:
		// The last two: this driver lacks the function, or the version of
		// its argument go-nvml passes (docs/driver-compatibility.md).
		g.skip[c] = true
		g.absent[c] = ret != nvml.ERROR_NOT_SUPPORTED
		if ret == nvml.ERROR_FUNCTION_NOT_FOUND {
			g.newAbsent = append(g.newAbsent, c) // said by Sample (absentLine)
		}
		g.note(c, g.skipReason(c))
	case nvml.ERROR_GPU_IS_LOST:
		g.lost = true
	case nvml.ERROR_NO_PERMISSION:
		g.note(c, reasonNoPermission)
	default:
		g.note(c, reasonFor(ret))
		g.failedOnce(c, ret)
	}
	return false
}

// failedOnce queues a problem line the first time call c fails with ret (a
// timeout, a power or memory error, the driver unloaded): the field is n/a
// every tick, but the line is said once per GPU, field and error.
func (g *gpuReader) failedOnce(c call, ret nvml.Return) {
	type cause struct {
		c   call
		ret nvml.Return
	}
	if g.said == nil {
		g.said = map[any]bool{}
	}
	if k := (cause{c, ret}); !g.said[k] {
		g.said[k] = true
		g.fails = append(g.fails, fail{c, ret})
	}
}

// once queues line the first time key is seen on this GPU, and reports
// whether it did.
func (g *gpuReader) once(key any, line string) bool {
	if g.said == nil {
		g.said = map[any]bool{}
	}
	if g.said[key] {
		return false
	}
	g.said[key] = true
	g.problems = append(g.problems, line)
	return true
}

// skipReason is why a call that answered NOT_SUPPORTED is n/a: a function
// the driver lacks says so; GPM on a GPU older than Hopper says so (the
// slow tier, read first, knows the architecture); anything else is plainly
// "not supported".
func (g *gpuReader) skipReason(c call) string {
	if g.absent[c] {
		return reasonNotInDriver
	}
	if c == cGPM && g.slow.Arch != "" && !sampler.ArchHasGPM(g.slow.Arch) {
		return sampler.ReasonNoGPM
	}
	return reasonNotSupported
}

// reasonFor is the NA text for a failed call.
func reasonFor(ret nvml.Return) string {
	switch ret {
	case nvml.ERROR_NOT_SUPPORTED:
		return reasonNotSupported
	case nvml.ERROR_FUNCTION_NOT_FOUND, nvml.ERROR_ARGUMENT_VERSION_MISMATCH:
		return reasonNotInDriver
	case nvml.ERROR_NO_PERMISSION:
		return reasonNoPermission
	}
	return ret.Error()
}

// note records that call c's fields are n/a for reason. Not inlined, nor
// noteField: a copy of their append at each of their ~40 call sites cost
// the binary more than the call costs a tick (docs/benchmarks.md, "The
// dashboard at 100 ms, again").
//
//go:noinline
func (g *gpuReader) note(c call, reason string) {
	for _, k := range callFields[c] {
		g.na = append(g.na, naEntry{k, reason})
	}
}

//go:noinline
func (g *gpuReader) noteField(key, reason string) {
	g.na = append(g.na, naEntry{key, reason})
}

// naMap publishes this tick's reasons. Snapshots are immutable once sent, so
// a map is shared between ticks only while the reasons stay the same — the
// usual case, which then costs no allocation.
func (g *gpuReader) naMap() map[string]string {
	if len(g.na) == 0 {
		g.prevNA = nil
		return nil
	}
	if len(g.na) == len(g.prevNA) {
		same := true
		for _, e := range g.na {
			if r, ok := g.prevNA[e.key]; !ok || r != e.reason {
				same = false
				break
			}
		}
		if same {
			return g.prevNA
		}
	}
	m := make(map[string]string, len(g.na))
	for _, e := range g.na {
		m[e.key] = e.reason
	}
	g.prevNA = m
	return m
}

func some[T uint32 | uint64 | int](v T) sampler.Metric { return sampler.Some(float64(v)) }

// read makes call c when it is wanted and hands a SUCCESS answer to set.
// Every other answer is handled once, here: NOT_SUPPORTED is cached and
// noted, NO_PERMISSION and errors noted, GPU_IS_LOST marks the GPU (want, ok).
func read[T any](g *gpuReader, c call, get func() (T, nvml.Return), set func(T)) {
	if !g.want(c) {
		return
	}
	if v, r := get(); g.ok(c, r) {
		set(v)
	}
}

// readMetric is read for a number stored as it comes, as a Metric.
func readMetric[T uint32 | uint64 | int](g *gpuReader, c call, get func() (T, nvml.Return), dst *sampler.Metric) {
	read(g, c, get, func(v T) { *dst = some(v) })
}

// arg binds a one-argument NVML query for read (GetClockInfo(CLOCK_SM)).
func arg[A, T any](get func(A) (T, nvml.Return), a A) func() (T, nvml.Return) {
	return func() (T, nvml.Return) { return get(a) }
}

// args binds a two-argument NVML query for read.
func args[A, B, T any](get func(A, B) (T, nvml.Return), a A, b B) func() (T, nvml.Return) {
	return func() (T, nvml.Return) { return get(a, b) }
}
