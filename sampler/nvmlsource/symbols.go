package nvmlsource

import (
	"fmt"
	"strings"
)

// go-nvml opens libnvidia-ml lazily: calling a function the loaded driver
// lacks does not return ERROR_FUNCTION_NOT_FOUND, the dynamic linker ends
// the process ("undefined symbol"). So every function newer than the
// drivers gpuscope supports is looked up once at start, and a call whose
// function is absent is never made (docs/driver-compatibility.md, the
// "missing symbol" rows). Versioned calls go-nvml resolves itself when it
// loads the library (the _v2/_v3 process lists) are not listed here.

// optionalCall is a call made through a function not every driver has.
type optionalCall struct {
	c      call
	symbol string
	since  string // the first driver branch that has it
}

// cMIGGPM stands for GPM on MIG instances, which has no call of its own.
const cMIGGPM = numCalls

// optionalCalls, a read-only table. cClockEvents falls back to the older
// call with the same bits, cMemV2 to GetMemoryInfo; the others are n/a.
var optionalCalls = [...]optionalCall{
	{cClockEvents, "nvmlDeviceGetCurrentClocksEventReasons", "R535"},
	{cMemV2, "nvmlDeviceGetMemoryInfo_v2", "R510"},
	{cGPM, "nvmlGpmQueryDeviceSupport", "R520"},
	{cGPM, "nvmlGpmSampleAlloc", "R520"},
	{cGPM, "nvmlGpmSampleGet", "R520"},
	{cGPM, "nvmlGpmMetricsGet", "R520"},
	{cMIGGPM, "nvmlGpmMigSampleGet", "R525"},
	{cNUMA, "nvmlDeviceGetNumaNodeId", "recent drivers"},
}

// symbols is what the driver lacks, looked up once in New.
type symbols struct {
	throttleReasons bool   // use GetCurrentClocksThrottleReasons
	noMemV2         bool   // use GetMemoryInfo
	noMIGGPM        bool   // no GPM on MIG instances
	absent          []call // calls that are n/a for good
}

// lookUpSymbols asks the library for every optional function and returns
// what is missing and the line that says what that costs ("" if nothing).
func lookUpSymbols(lib Library, driver string) (symbols, string) {
	var sy symbols
	ext := lib.Extensions()
	if ext == nil {
		return sy, ""
	}
	var lost []string
	for _, o := range optionalCalls {
		if ext.LookupSymbol(o.symbol) == nil {
			continue
		}
		switch o.c {
		case cClockEvents:
			sy.throttleReasons = true
			continue
		case cMemV2:
			sy.noMemV2 = true
			continue
		case cMIGGPM:
			sy.noMIGGPM = true
		default:
			sy.absent = append(sy.absent, o.c)
		}
		lost = append(lost, fmt.Sprintf("%s (%s)", o.symbol, o.since))
	}
	if len(lost) == 0 {
		return sy, ""
	}
	return sy, fmt.Sprintf("driver %s lacks %s: those readings are n/a (%s); a newer driver has them",
		driver, strings.Join(lost, ", "), reasonNoSymbol)
}

// apply marks a GPU's calls whose functions are missing as never to make.
func (sy *symbols) apply(g *gpuReader) {
	if sy.noMemV2 {
		g.skip[cMemV2] = true
	}
	for _, c := range sy.absent {
		g.skip[c], g.why[c] = true, reasonNoSymbol
	}
}
