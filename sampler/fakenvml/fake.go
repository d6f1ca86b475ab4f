// Package fakenvml is an nvml.Interface that answers from a "truth": the
// []sampler.GPU a test or the --demo scenario engine wants the NVML source to
// read back. It answers every method the nvmlsource package calls, so that
// the demo drives the production code path.
package fakenvml

import (
	"strconv"
	"sync/atomic"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// Models the fake can imitate.
const (
	ModelH200 = "h200" // Hopper: GPM supported
	ModelA100 = "a100" // Ampere: GPM answers NOT_SUPPORTED
)

// identity is what a model answers when the truth names nothing: the
// board's name, PCI device id and architecture as the real boards report
// them (the PCI ids as in go-nvml's mock GPU configs, pkg/nvml/mock/gpus).
type identity struct {
	name        string
	pciDeviceID uint32
	arch        nvml.DeviceArchitecture
}

var models = map[string]identity{
	ModelH200: {"NVIDIA H200 141GB HBM3e", 0x233310DE, nvml.DEVICE_ARCH_HOPPER},
	ModelA100: {"NVIDIA A100-SXM4-40GB", 0x20B010DE, nvml.DEVICE_ARCH_AMPERE},
}

// Config describes the fake node.
type Config struct {
	// GPUs is the device count; 0 means len(Truth()), or 8 without a Truth.
	GPUs int
	// Model is ModelH200 (default) or ModelA100.
	Model string
	// Truth returns the readings to serve, indexed by GPU index. It is called
	// on every NVML call, so it must be cheap, safe for concurrent use, and
	// must not mutate a slice it has returned (publish a new one per step).
	// nil serves BaseTruth(GPUs, Model).
	Truth func() []sampler.GPU
	// Topology gives the PCIe relation (PIX/PXB/PHB/NODE/SYS) that
	// GetTopologyCommonAncestor answers per pair; nil means GPUs in the same
	// half of the node are NODE apart and others SYS. NVLink entries come
	// from the truth's NVLinks, not from here.
	Topology *sampler.Topology
	Driver   string // default "550.54.15"
	CUDA     string // default "12.4"
	NVML     string // default "12.550.54.15"
	// Missing names C functions this driver lacks ("nvmlGpmSampleGet"):
	// LookupSymbol reports them absent and calling one panics with a
	// SymbolLookupError, as the process would die on a real node.
	Missing []string
	// InitDelay is how long Init takes (a node without persistence mode).
	InitDelay time.Duration
	// VGPUGuest makes every GPU a vGPU seen from inside its virtual machine.
	VGPUGuest bool
	// Fabric makes every GPU part of an NVSwitch fabric, registered as
	// this says (State: nvml.GPU_FABRIC_STATE_*, Status: an nvml.Return);
	// nil: no fabric, GetGpuFabricInfo answers NOT_SUPPORTED.
	Fabric *nvml.GpuFabricInfo
}

// Fake is the fake NVML. All methods are safe for concurrent use.
type Fake struct {
	cfg    Config
	truth  func() []sampler.GPU
	lib    *library
	devs   []*device
	hasGPM bool
	id     identity // the model's, for what the truth leaves empty

	// Per GPU (slot 0 is the library, slot i+1 is GPU i): calls counts every
	// call; faults holds the injected answer per method, with one extra
	// slot for "*". A zero Return is SUCCESS: no fault.
	calls  [][numMethods]atomic.Int64
	faults [][numMethods + 1]atomic.Int32

	missing       map[string]bool  // Config.Missing (read only after New)
	missingMethod [numMethods]bool // methods whose function is missing
}

// LibraryGPU is the gpu argument of SetFault for library-level calls such as
// "Init" and "EventSetCreate".
const LibraryGPU = -1

// New builds the fake from cfg.
func New(cfg Config) *Fake {
	if cfg.Model == "" {
		cfg.Model = ModelH200
	}
	if cfg.Driver == "" {
		cfg.Driver = "550.54.15"
	}
	if cfg.CUDA == "" {
		cfg.CUDA = "12.4"
	}
	if cfg.NVML == "" {
		cfg.NVML = "12.550.54.15"
	}
	if cfg.GPUs <= 0 {
		cfg.GPUs = 8
		if cfg.Truth != nil {
			cfg.GPUs = len(cfg.Truth())
		}
	}
	f := &Fake{cfg: cfg, truth: cfg.Truth}
	f.markMissing()
	f.calls = make([][numMethods]atomic.Int64, cfg.GPUs+1)
	f.faults = make([][numMethods + 1]atomic.Int32, cfg.GPUs+1)
	if f.truth == nil {
		base := BaseTruth(cfg.GPUs, cfg.Model)
		f.truth = func() []sampler.GPU { return base }
	}
	f.hasGPM = cfg.Model != ModelA100
	f.id = models[ModelH200]
	if id, ok := models[cfg.Model]; ok {
		f.id = id
	}
	f.lib = &library{f: f}
	f.devs = make([]*device, cfg.GPUs)
	for i := range f.devs {
		f.devs[i] = &device{f: f, idx: i}
	}
	return f
}

// Interface is the library to hand to nvmlsource.New (or to Guarded) and
// to doctor.
func (f *Fake) Interface() NVML { return f.lib }

// SetFault makes method (a go-nvml method name such as "GetPowerUsage", see
// Methods, or "*" for every call) on GPU gpu answer ret from now on. Use
// LibraryGPU for library-level calls; GPM calls count against the GPU the
// sample belongs to. An unknown name or GPU is ignored.
func (f *Fake) SetFault(gpu int, method string, ret nvml.Return) {
	if slot := f.faultSlot(gpu, method); slot != nil {
		slot.Store(int32(ret))
	}
}

// ClearFault removes a fault set with SetFault.
func (f *Fake) ClearFault(gpu int, method string) { f.SetFault(gpu, method, nvml.SUCCESS) }

func (f *Fake) faultSlot(gpu int, name string) *atomic.Int32 {
	if gpu+1 < 0 || gpu+1 >= len(f.faults) {
		return nil
	}
	if name == "*" {
		return &f.faults[gpu+1][numMethods]
	}
	if m, ok := methodByName(name); ok {
		return &f.faults[gpu+1][m]
	}
	return nil
}

// Calls counts how often method was called on GPU gpu (including calls
// answered with a fault), so tests can check that a call is not repeated.
func (f *Fake) Calls(gpu int, method string) int {
	m, ok := methodByName(method)
	if !ok || gpu+1 < 0 || gpu+1 >= len(f.calls) {
		return 0
	}
	return int(f.calls[gpu+1][m].Load())
}

// enter counts the call and returns the injected fault, or SUCCESS.
func (f *Fake) enter(gpu int, m method) nvml.Return {
	if gpu+1 < 0 || gpu+1 >= len(f.calls) {
		return nvml.SUCCESS
	}
	f.checkSymbol(m)
	f.calls[gpu+1][m].Add(1)
	if r := f.faults[gpu+1][m].Load(); r != 0 {
		return nvml.Return(r)
	}
	return nvml.Return(f.faults[gpu+1][numMethods].Load())
}

// gpu returns the truth for index i (read only); a truth shorter than the
// device count yields an all-n/a GPU rather than a panic.
func (f *Fake) gpu(i int) *sampler.GPU {
	t := f.truth()
	if i < 0 || i >= len(t) {
		return &sampler.GPU{Index: i}
	}
	return &t[i]
}

// busID is the PCI bus id GPU i answers: the truth's, or a derived one.
func (f *Fake) busID(i int) string {
	if b := f.gpu(i).BusID; b != "" {
		return b
	}
	return BusID(i)
}

// cudaInt turns "12.4" into NVML's 12040.
func cudaInt(s string) int {
	major, minor := s, "0"
	for i := range s {
		if s[i] == '.' {
			major, minor = s[:i], s[i+1:]
			break
		}
	}
	ma, _ := strconv.Atoi(major)
	mi, _ := strconv.Atoi(minor)
	return ma*1000 + mi*10
}
