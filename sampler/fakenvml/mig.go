package fakenvml

import (
	"math"
	"strconv"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// A truth GPU with MIG set and MIGDevices listed is served as a MIG-enabled
// GPU: GetMigDeviceHandleByIndex hands out MIG device handles that answer
// from the truth's MIGDevices, and GpmMigSampleGet samples per GPU instance.
// Calls on a MIG device count (and take faults) against its parent GPU.
// Building such a truth is the simulator's job (sim.EnableMIG): the truth
// does not depend on the fake driver.

// maxMIGDevices is what GetMaxMigDeviceCount answers: seven instances at most
// on A100/H100/H200 (NVIDIA MIG user guide, "Supported profiles").
const maxMIGDevices = 7

// migDevice is a MIG device handle. The embedded nil nvml.Device makes any
// call not overridden here panic, which flags a missing override in tests.
type migDevice struct {
	nvml.Device
	parent *device
	idx    int // MIG device index
}

// inst counts the call against the parent and returns the instance's truth;
// an instance the truth no longer lists answers NOT_FOUND.
func (m *migDevice) inst(meth method) (*sampler.MIGDevice, nvml.Return) {
	g, r := m.parent.read(meth)
	if r != nvml.SUCCESS {
		return nil, r
	}
	for i := range g.MIGDevices {
		if g.MIGDevices[i].Index == m.idx {
			return &g.MIGDevices[i], nvml.SUCCESS
		}
	}
	return nil, nvml.ERROR_NOT_FOUND
}

func (d *device) GetMaxMigDeviceCount() (int, nvml.Return) {
	if _, r := d.read(mGetMaxMigDeviceCount); r != nvml.SUCCESS {
		return 0, r
	}
	return maxMIGDevices, nvml.SUCCESS
}

func (d *device) GetMigDeviceHandleByIndex(i int) (nvml.Device, nvml.Return) {
	g, r := d.read(mGetMigDeviceHandleByIndex)
	if r != nvml.SUCCESS {
		return nil, r
	}
	if !g.MIG || i < 0 || i >= maxMIGDevices {
		return nil, nvml.ERROR_INVALID_ARGUMENT
	}
	for _, md := range g.MIGDevices {
		if md.Index == i {
			return &migDevice{parent: d, idx: i}, nvml.SUCCESS
		}
	}
	return nil, nvml.ERROR_NOT_FOUND
}

func (d *device) GpmMigSampleGet(gpuInstance int, s nvml.GpmSample) nvml.Return {
	gs, ok := s.(*gpmSample)
	g, r := d.read(mGpmMigSampleGet)
	switch {
	case !ok || gs.f != d.f:
		return nvml.ERROR_INVALID_ARGUMENT
	case r != nvml.SUCCESS:
		return r
	case !d.f.hasGPM:
		return nvml.ERROR_NOT_SUPPORTED
	case !g.MIG:
		return nvml.ERROR_INVALID_ARGUMENT
	}
	for _, md := range g.MIGDevices {
		if md.GPUInstance != gpuInstance {
			continue
		}
		gs.gpu, gs.gi = d.idx, gpuInstance
		ms := [len(gpmFields)]sampler.Metric{md.SMActive, sampler.NA, md.TensorActive, md.DRAMActive, sampler.NA, sampler.NA, sampler.NA}
		for i, m := range ms {
			gs.vals[i], gs.rets[i] = m.V, nvml.SUCCESS
			if !m.OK {
				gs.rets[i] = nvml.ERROR_NOT_SUPPORTED
			}
		}
		return nvml.SUCCESS
	}
	return nvml.ERROR_NOT_FOUND
}

func (m *migDevice) IsMigDeviceHandle() (bool, nvml.Return) { return true, nvml.SUCCESS }

func (m *migDevice) GetDeviceHandleFromMigDeviceHandle() (nvml.Device, nvml.Return) {
	return m.parent, nvml.SUCCESS
}

func (m *migDevice) GetGpuInstanceId() (int, nvml.Return) {
	in, r := m.inst(mGetGpuInstanceId)
	if r != nvml.SUCCESS {
		return 0, r
	}
	return in.GPUInstance, nvml.SUCCESS
}

func (m *migDevice) GetComputeInstanceId() (int, nvml.Return) {
	in, r := m.inst(mGetComputeInstanceId)
	if r != nvml.SUCCESS {
		return 0, r
	}
	return in.ComputeInstance, nvml.SUCCESS
}

func (m *migDevice) GetUUID() (string, nvml.Return) {
	in, r := m.inst(mGetUUID)
	if r != nvml.SUCCESS {
		return "", r
	}
	return in.UUID, nvml.SUCCESS
}

// GetAttributes answers the slice counts and memory size the truth's
// profile name and MemTotal imply ("1c.3g.71gb": 3 GPU slices).
func (m *migDevice) GetAttributes() (nvml.DeviceAttributes, nvml.Return) {
	in, r := m.inst(mGetAttributes)
	if r != nvml.SUCCESS {
		return nvml.DeviceAttributes{}, r
	}
	name := in.Profile
	if c := strings.Index(name, "c."); c >= 0 {
		name = name[c+2:]
	}
	gSlices, _ := strconv.Atoi(name[:max(strings.IndexByte(name, 'g'), 0)])
	return nvml.DeviceAttributes{
		GpuInstanceSliceCount:     uint32(gSlices),
		ComputeInstanceSliceCount: uint32(in.SMSlices),
		MemorySizeMB:              uint64(in.MemTotal.V) >> 20,
	}, nvml.SUCCESS
}

func (m *migDevice) GetMemoryInfo_v2() (nvml.Memory_v2, nvml.Return) {
	in, r := m.inst(mGetMemoryInfov2)
	if r != nvml.SUCCESS {
		return nvml.Memory_v2{}, r
	}
	if !in.MemTotal.OK {
		return nvml.Memory_v2{}, nvml.ERROR_NOT_SUPPORTED
	}
	total, used := uint64(in.MemTotal.V), uint64(in.MemUsed.V)
	return nvml.Memory_v2{Total: total, Used: used, Free: total - min(used, total)}, nvml.SUCCESS
}

func (m *migDevice) GetMemoryInfo() (nvml.Memory, nvml.Return) {
	in, r := m.inst(mGetMemoryInfo)
	if r != nvml.SUCCESS {
		return nvml.Memory{}, r
	}
	if !in.MemTotal.OK {
		return nvml.Memory{}, nvml.ERROR_NOT_SUPPORTED
	}
	total, used := uint64(in.MemTotal.V), uint64(in.MemUsed.V)
	return nvml.Memory{Total: total, Used: used, Free: total - min(used, total)}, nvml.SUCCESS
}

func (m *migDevice) GetComputeRunningProcesses() ([]nvml.ProcessInfo, nvml.Return) {
	in, r := m.inst(mGetComputeRunningProcesses)
	if r != nvml.SUCCESS {
		return nil, r
	}
	var out []nvml.ProcessInfo
	for _, p := range in.Procs {
		if !strings.Contains(p.Type, "C") {
			continue
		}
		mem := uint64(math.MaxUint64) // NVML_VALUE_NOT_AVAILABLE
		if p.MemUsed.OK {
			mem = uint64(p.MemUsed.V)
		}
		out = append(out, nvml.ProcessInfo{Pid: uint32(p.PID), UsedGpuMemory: mem, GpuInstanceId: uint32(in.GPUInstance), ComputeInstanceId: uint32(in.ComputeInstance)})
	}
	return out, nvml.SUCCESS
}
