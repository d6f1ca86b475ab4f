package nvmlsource

import (
	"sync"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// Guarded wraps the driver's library so that a query whose C function this
// driver does not export answers ERROR_FUNCTION_NOT_FOUND (read as "not
// supported": the field shows n/a with its reason) instead of ending the
// process. go-nvml binds NVML lazily: a call into a symbol the installed
// libnvidia-ml lacks (GPM before R520, clock event reasons before R535,
// memory info v2 before R510, the MIG calls before R450) dies with "symbol
// lookup error" at the first tick (docs/driver-compatibility.md). Each
// name is looked up once, after Init has loaded the library. Pass the
// result to New; the fake and go-nvml's mocks need no guard.
func Guarded(lib Lookup) Library {
	return &guardLib{Library: lib, syms: &symbols{ext: lib.Extensions(), seen: map[string]bool{}}}
}

// Lookup is a Library that can say which functions the loaded driver
// exports (go-nvml's nvml.Interface, the fake).
type Lookup interface {
	Library
	Extensions() nvml.ExtendedInterface
}

// symbols answers whether the loaded library exports a function.
type symbols struct {
	ext  nvml.ExtendedInterface
	mu   sync.Mutex
	seen map[string]bool
}

// has reports whether the function is exported under its name or a
// versioned one (_v2, _v3): go-nvml calls the newest version it finds.
func (s *symbols) has(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ok, done := s.seen[name]
	if !done {
		for _, n := range []string{name, name + "_v2", name + "_v3"} {
			if ok = s.ext.LookupSymbol(n) == nil; ok {
				break
			}
		}
		s.seen[name] = ok
	}
	return ok
}

// guard calls get when the function is exported.
func guard[T any](s *symbols, get func() (T, nvml.Return), name string) (T, nvml.Return) {
	if !s.has(name) {
		var zero T
		return zero, nvml.ERROR_FUNCTION_NOT_FOUND
	}
	return get()
}

func guardRet(s *symbols, call func() nvml.Return, name string) nvml.Return {
	if !s.has(name) {
		return nvml.ERROR_FUNCTION_NOT_FOUND
	}
	return call()
}

// guardLib embeds the narrow Library, not nvml.Interface: embedding the
// whole interface made the compiler write a wrapper for each of its ~400
// methods into the binary (docs/benchmarks.md "What each dependency costs").
type guardLib struct {
	Library
	syms *symbols
}

func (l *guardLib) DeviceGetCount() (int, nvml.Return) {
	return guard(l.syms, l.Library.DeviceGetCount, "nvmlDeviceGetCount")
}

func (l *guardLib) DeviceGetHandleByIndex(i int) (nvml.Device, nvml.Return) {
	d, r := guard(l.syms, func() (nvml.Device, nvml.Return) { return l.Library.DeviceGetHandleByIndex(i) }, "nvmlDeviceGetHandleByIndex")
	if d == nil {
		return nil, r
	}
	return &guardDev{Device: d, syms: l.syms}, r
}

func (l *guardLib) EventSetCreate() (nvml.EventSet, nvml.Return) {
	return guard(l.syms, l.Library.EventSetCreate, "nvmlEventSetCreate")
}

func (l *guardLib) GpmMetricsGet(m *nvml.GpmMetricsGetType) nvml.Return {
	return guardRet(l.syms, func() nvml.Return { return l.Library.GpmMetricsGet(m) }, "nvmlGpmMetricsGet")
}

func (l *guardLib) GpmSampleAlloc() (nvml.GpmSample, nvml.Return) {
	return guard(l.syms, l.Library.GpmSampleAlloc, "nvmlGpmSampleAlloc")
}

func (l *guardLib) SystemGetCudaDriverVersion() (int, nvml.Return) {
	return guard(l.syms, l.Library.SystemGetCudaDriverVersion, "nvmlSystemGetCudaDriverVersion")
}

func (l *guardLib) SystemGetDriverVersion() (string, nvml.Return) {
	return guard(l.syms, l.Library.SystemGetDriverVersion, "nvmlSystemGetDriverVersion")
}

func (l *guardLib) SystemGetNVMLVersion() (string, nvml.Return) {
	return guard(l.syms, l.Library.SystemGetNVMLVersion, "nvmlSystemGetNVMLVersion")
}
