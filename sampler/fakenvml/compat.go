package fakenvml

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// What real drivers do that the fake imitates on request
// (docs/driver-compatibility.md): functions an older libnvidia-ml lacks, a
// slow or hung nvmlInit, a vGPU guest, an NVSwitch fabric.

// methodSymbols are the C functions behind the fake's methods that not every
// driver has, as go-nvml calls them. A read-only table.
var methodSymbols = [numMethods]string{
	mGetCurrentClocksEventReasons: "nvmlDeviceGetCurrentClocksEventReasons",
	mGetFieldValues:               "nvmlDeviceGetFieldValues",
	mGetGpuFabricInfo:             "nvmlDeviceGetGpuFabricInfo",
	mGetGridLicensableFeatures:    "nvmlDeviceGetGridLicensableFeatures",
	mGetMemoryInfov2:              "nvmlDeviceGetMemoryInfo_v2",
	mGetNumaNodeId:                "nvmlDeviceGetNumaNodeId",
	mGetTotalEnergyConsumption:    "nvmlDeviceGetTotalEnergyConsumption",
	mGpmQueryDeviceSupport:        "nvmlGpmQueryDeviceSupport",
	mGpmSampleAlloc:               "nvmlGpmSampleAlloc",
	mGpmSampleGet:                 "nvmlGpmSampleGet",
	mGpmMetricsGet:                "nvmlGpmMetricsGet",
	mGpmMigSampleGet:              "nvmlGpmMigSampleGet",
}

// SymbolLookupError is what the fake panics with when a function the
// configured driver lacks is called: go-nvml opens libnvidia-ml lazily, so
// on a real node the dynamic linker ends the process at that call ("symbol
// lookup error: undefined symbol"). A reader must ask LookupSymbol first.
type SymbolLookupError struct{ Symbol string }

func (e SymbolLookupError) Error() string {
	return "symbol lookup error: undefined symbol: " + e.Symbol
}

// errNoSymbol is LookupSymbol's answer for a missing function.
var errNoSymbol = errors.New("undefined symbol")

// checkSymbol panics when method m's function is missing from the driver.
func (f *Fake) checkSymbol(m method) {
	if f.missingMethod[m] {
		panic(SymbolLookupError{methodSymbols[m]})
	}
}

// markMissing records cfg.Missing by method, so the check costs one read.
func (f *Fake) markMissing() {
	f.missing = map[string]bool{}
	for _, s := range f.cfg.Missing {
		f.missing[s] = true
	}
	for m, s := range methodSymbols {
		f.missingMethod[m] = s != "" && f.missing[s]
	}
}

// Extensions answers LookupSymbol as the configured driver would.
func (l *library) Extensions() nvml.ExtendedInterface { return l }

// LookupSymbol reports a function in Config.Missing as absent, and its
// versioned names too (a driver without nvmlX has no nvmlX_v2 either).
func (l *library) LookupSymbol(name string) error {
	base := name
	if i := strings.LastIndex(name, "_v"); i > 0 {
		if _, err := strconv.Atoi(name[i+2:]); err == nil {
			base = name[:i]
		}
	}
	if l.f.missing[name] || l.f.missing[base] {
		return errNoSymbol
	}
	return nil
}

// init waits Config.InitDelay, as nvmlInit does on a node without
// persistence mode (the driver sets every GPU up for each new client).
func (f *Fake) initDelay() {
	if f.cfg.InitDelay > 0 {
		time.Sleep(f.cfg.InitDelay)
	}
}

// GetCurrentClocksThrottleReasons is the call drivers before R535 offer for
// the clock-event mask (the bits are the same).
func (d *device) GetCurrentClocksThrottleReasons() (uint64, nvml.Return) {
	return d.clockEvents(mGetCurrentClocksThrottleReasons)
}

// GetVirtualizationMode answers VGPU in a guest (Config.VGPUGuest), NONE
// on bare metal.
func (d *device) GetVirtualizationMode() (nvml.GpuVirtualizationMode, nvml.Return) {
	if r := d.f.enter(d.idx, mGetVirtualizationMode); r != nvml.SUCCESS {
		return 0, r
	}
	if d.f.cfg.VGPUGuest {
		return nvml.GPU_VIRTUALIZATION_MODE_VGPU, nvml.SUCCESS
	}
	return nvml.GPU_VIRTUALIZATION_MODE_NONE, nvml.SUCCESS
}

// GetGridLicensableFeatures answers the truth's licence state: on bare
// metal a GPU that takes no licence (the truth's 0), in a vGPU guest
// (Config.VGPUGuest) the vGPU feature, held or not.
func (d *device) GetGridLicensableFeatures() (nvml.GridLicensableFeatures, nvml.Return) {
	g, r := d.read(mGetGridLicensableFeatures)
	if r != nvml.SUCCESS {
		return nvml.GridLicensableFeatures{}, r
	}
	if !g.VGPULicense.OK {
		return nvml.GridLicensableFeatures{}, naReturn(g, sampler.NAVGPULicense)
	}
	if !d.f.cfg.VGPUGuest && g.VGPULicense.V == 0 {
		return nvml.GridLicensableFeatures{}, nvml.SUCCESS
	}
	f := nvml.GridLicensableFeatures{IsGridLicenseSupported: 1, LicensableFeaturesCount: 1}
	f.GridLicensableFeatures[0] = nvml.GridLicensableFeature{FeatureCode: uint32(nvml.GRID_LICENSE_FEATURE_CODE_VGPU), FeatureState: uint32(g.VGPULicense.V)}
	return f, nvml.SUCCESS
}

// OptionalSymbols lists the functions Config.Missing can take away that the
// fake's methods call (the ones a reader must look up first).
func OptionalSymbols() []string {
	var out []string
	for _, s := range methodSymbols {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// GetGpuFabricInfo answers Config.Fabric, the GPU's registration with the
// NVSwitch fabric; without one, NOT_SUPPORTED, as a GPU outside an
// NVSwitch system (or one older than Hopper) answers.
func (d *device) GetGpuFabricInfo() (nvml.GpuFabricInfo, nvml.Return) {
	if r := d.f.enter(d.idx, mGetGpuFabricInfo); r != nvml.SUCCESS {
		return nvml.GpuFabricInfo{}, r
	}
	if d.f.cfg.Fabric == nil {
		return nvml.GpuFabricInfo{}, nvml.ERROR_NOT_SUPPORTED
	}
	return *d.f.cfg.Fabric, nvml.SUCCESS
}
