package nvmlsource

import (
	"errors"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
)

// oldDriver is a go-nvml mock whose library exports only the names in
// exported (as dlsym answers), with one GPU that has one MIG device.
func oldDriver(exported ...string) (*mock.Interface, *mock.Device, *mock.ExtendedInterface) {
	have := map[string]bool{}
	for _, n := range exported {
		have[n] = true
	}
	ext := &mock.ExtendedInterface{LookupSymbolFunc: func(n string) error {
		if have[n] {
			return nil
		}
		return errors.New("undefined symbol: " + n)
	}}
	migDev := &mock.Device{GetUtilizationRatesFunc: func() (nvml.Utilization, nvml.Return) {
		return nvml.Utilization{Gpu: 9}, nvml.SUCCESS
	}}
	dev := &mock.Device{
		GetFanSpeedFunc:                     func() (uint32, nvml.Return) { return 55, nvml.SUCCESS },
		GetNameFunc:                         func() (string, nvml.Return) { return "Tesla K80", nvml.SUCCESS },
		GetCurrentClocksEventReasonsFunc:    func() (uint64, nvml.Return) { return 0x4, nvml.SUCCESS },
		GetCurrentClocksThrottleReasonsFunc: func() (uint64, nvml.Return) { return 0x1, nvml.SUCCESS },
		GetMigDeviceHandleByIndexFunc:       func(int) (nvml.Device, nvml.Return) { return migDev, nvml.SUCCESS },
	}
	lib := &mock.Interface{
		ExtensionsFunc:             func() nvml.ExtendedInterface { return ext },
		DeviceGetCountFunc:         func() (int, nvml.Return) { return 1, nvml.SUCCESS },
		DeviceGetHandleByIndexFunc: func(int) (nvml.Device, nvml.Return) { return dev, nvml.SUCCESS },
	}
	return lib, dev, ext
}

// TestGuardedSkipsWhatTheDriverLacks: a query whose C function the driver
// does not export answers FUNCTION_NOT_FOUND and never reaches go-nvml,
// which would end the process with "symbol lookup error".
func TestGuardedSkipsWhatTheDriverLacks(t *testing.T) {
	lib, dev, ext := oldDriver("nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetName",
		"nvmlDeviceGetCurrentClocksThrottleReasons", "nvmlDeviceGetMigDeviceHandleByIndex")
	g := Guarded(lib)
	if n, r := g.DeviceGetCount(); r != nvml.SUCCESS || n != 1 {
		t.Fatalf("DeviceGetCount with only the _v2 symbol: %d, %v", n, r)
	}
	d, r := g.DeviceGetHandleByIndex(0)
	if r != nvml.SUCCESS {
		t.Fatal(r)
	}
	gd := d.(Device)
	if name, r := gd.GetName(); r != nvml.SUCCESS || name != "Tesla K80" {
		t.Errorf("an exported call: %q, %v", name, r)
	}
	for range 3 {
		if _, r := gd.GetFanSpeed(); r != nvml.ERROR_FUNCTION_NOT_FOUND {
			t.Errorf("GetFanSpeed without its symbol: %v, want ERROR_FUNCTION_NOT_FOUND", r)
		}
	}
	if n := len(dev.GetFanSpeedCalls()); n != 0 {
		t.Errorf("a missing function was called %d times", n)
	}
	// Before R535 the same bitmask was "throttle reasons".
	if v, r := gd.GetCurrentClocksEventReasons(); r != nvml.SUCCESS || v != 0x1 {
		t.Errorf("clock event reasons on a pre-R535 driver: %#x, %v; want the throttle reasons 0x1", v, r)
	}
	// A MIG device's queries are guarded too.
	md, r := gd.GetMigDeviceHandleByIndex(0)
	if r != nvml.SUCCESS {
		t.Fatal(r)
	}
	if _, r := md.(Device).GetUtilizationRates(); r != nvml.ERROR_FUNCTION_NOT_FOUND {
		t.Errorf("MIG device utilisation without its symbol: %v", r)
	}
	// Each name is looked up once (dlsym per tick per field would add up).
	seen := map[string]int{}
	for _, c := range ext.LookupSymbolCalls() {
		seen[c.S]++
	}
	if seen["nvmlDeviceGetFanSpeed"] != 1 {
		t.Errorf("nvmlDeviceGetFanSpeed looked up %d times, want once", seen["nvmlDeviceGetFanSpeed"])
	}
}

// TestMissingFunctionSaysNotInDriver: the reader's n/a reason for a
// function the driver lacks is not "not supported" (the GPU could; the
// driver is older than the call).
func TestMissingFunctionSaysNotInDriver(t *testing.T) {
	g := &gpuReader{}
	if g.ok(cFan, nvml.ERROR_FUNCTION_NOT_FOUND) {
		t.Fatal("FUNCTION_NOT_FOUND read as success")
	}
	if !g.skip[cFan] || g.skipReason(cFan) != reasonNotInDriver {
		t.Errorf("skip %v, reason %q; want skipped with %q", g.skip[cFan], g.skipReason(cFan), reasonNotInDriver)
	}
	g.ok(cTemp, nvml.ERROR_NOT_SUPPORTED)
	if g.skipReason(cTemp) != reasonNotSupported {
		t.Errorf("NOT_SUPPORTED reason %q", g.skipReason(cTemp))
	}
}
