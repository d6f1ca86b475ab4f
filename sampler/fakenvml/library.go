package fakenvml

import (
	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// NVML is the part of nvml.Interface the fake answers: the calls
// nvmlsource and doctor make (their own narrow interfaces are subsets), and
// the symbol lookup. go-nvml's nvml.Interface satisfies it too.
type NVML interface {
	Init() nvml.Return
	Shutdown() nvml.Return
	SystemGetDriverVersion() (string, nvml.Return)
	SystemGetNVMLVersion() (string, nvml.Return)
	SystemGetCudaDriverVersion() (int, nvml.Return)
	DeviceGetCount() (int, nvml.Return)
	DeviceGetHandleByIndex(int) (nvml.Device, nvml.Return)
	DeviceGetHandleByUUID(string) (nvml.Device, nvml.Return)
	DeviceGetHandleByPciBusId(string) (nvml.Device, nvml.Return)
	DeviceGetTopologyCommonAncestor(nvml.Device, nvml.Device) (nvml.GpuTopologyLevel, nvml.Return)
	EventSetCreate() (nvml.EventSet, nvml.Return)
	GpmSampleAlloc() (nvml.GpmSample, nvml.Return)
	GpmSampleFree(nvml.GpmSample) nvml.Return
	GpmSampleGet(nvml.Device, nvml.GpmSample) nvml.Return
	GpmQueryDeviceSupport(nvml.Device) (nvml.GpmSupport, nvml.Return)
	GpmMetricsGet(*nvml.GpmMetricsGetType) nvml.Return
	Extensions() nvml.ExtendedInterface
}

var _ NVML = nvml.Interface(nil)

// library is the fake's NVML. It does not embed nvml.Interface: that made
// the compiler write a wrapper for each of its ~400 methods into the
// binary (docs/benchmarks.md "What each dependency costs"). Library-level
// faults use LibraryGPU.
type library struct {
	f *Fake
}

func (l *library) Init() nvml.Return {
	l.f.initDelay()
	return l.f.enter(LibraryGPU, mInit)
}
func (l *library) Shutdown() nvml.Return { return l.f.enter(LibraryGPU, mShutdown) }

func (l *library) SystemGetDriverVersion() (string, nvml.Return) {
	return l.f.cfg.Driver, l.f.enter(LibraryGPU, mSystemGetDriverVersion)
}

func (l *library) SystemGetNVMLVersion() (string, nvml.Return) {
	return l.f.cfg.NVML, l.f.enter(LibraryGPU, mSystemGetNVMLVersion)
}

func (l *library) SystemGetCudaDriverVersion() (int, nvml.Return) {
	return cudaInt(l.f.cfg.CUDA), l.f.enter(LibraryGPU, mSystemGetCudaDriverVersion)
}

func (l *library) DeviceGetCount() (int, nvml.Return) {
	if r := l.f.enter(LibraryGPU, mDeviceGetCount); r != nvml.SUCCESS {
		return 0, r
	}
	return len(l.f.devs), nvml.SUCCESS
}

func (l *library) DeviceGetHandleByIndex(i int) (nvml.Device, nvml.Return) {
	if r := l.f.enter(i, mDeviceGetHandleByIndex); r != nvml.SUCCESS {
		return nil, r
	}
	if i < 0 || i >= len(l.f.devs) {
		return nil, nvml.ERROR_INVALID_ARGUMENT
	}
	return l.f.devs[i], nvml.SUCCESS
}

func (l *library) EventSetCreate() (nvml.EventSet, nvml.Return) {
	if r := l.f.enter(LibraryGPU, mEventSetCreate); r != nvml.SUCCESS {
		return nil, r
	}
	return &eventSet{f: l.f}, nvml.SUCCESS
}

func (l *library) GpmSampleAlloc() (nvml.GpmSample, nvml.Return) {
	if r := l.f.enter(LibraryGPU, mGpmSampleAlloc); r != nvml.SUCCESS {
		return nil, r
	}
	return &gpmSample{f: l.f, gpu: -1}, nvml.SUCCESS
}

func (l *library) GpmSampleFree(s nvml.GpmSample) nvml.Return { return s.Free() }

func (l *library) GpmSampleGet(dev nvml.Device, s nvml.GpmSample) nvml.Return {
	return dev.GpmSampleGet(s)
}

func (l *library) GpmQueryDeviceSupport(dev nvml.Device) (nvml.GpmSupport, nvml.Return) {
	return dev.GpmQueryDeviceSupport()
}

func (l *library) GpmMetricsGet(m *nvml.GpmMetricsGetType) nvml.Return { return l.f.metricsGet(m) }

func (l *library) DeviceGetTopologyCommonAncestor(a, b nvml.Device) (nvml.GpuTopologyLevel, nvml.Return) {
	return a.GetTopologyCommonAncestor(b)
}

// DeviceGetHandleByUUID and DeviceGetHandleByPciBusId return the fake's
// devices (the mock server's own would lack the overrides).
func (l *library) DeviceGetHandleByUUID(uuid string) (nvml.Device, nvml.Return) {
	for i, d := range l.f.devs {
		if u, _ := d.GetUUID(); u == uuid {
			return l.f.devs[i], nvml.SUCCESS
		}
	}
	return nil, nvml.ERROR_NOT_FOUND
}

func (l *library) DeviceGetHandleByPciBusId(bus string) (nvml.Device, nvml.Return) {
	for i := range l.f.devs {
		if l.f.busID(i) == bus {
			return l.f.devs[i], nvml.SUCCESS
		}
	}
	return nil, nvml.ERROR_NOT_FOUND
}
