package nvmlsource

import (
	"fmt"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// reasonMIG: the readings NVML does not offer on a MIG-enabled GPU are
// not asked for at all ([nvml-api] and [mig-guide]: device utilisation and
// per-process utilisation are not supported with MIG enabled).
const reasonMIG = sampler.ReasonMIG

// migGPMMetrics are the GPM metrics read per GPU instance, in the order of
// migInst.vals: an instance has no NVLinks of its own.
var migGPMMetrics = [...]nvml.GpmMetricId{
	nvml.GPM_METRIC_SM_UTIL,
	nvml.GPM_METRIC_ANY_TENSOR_UTIL,
	nvml.GPM_METRIC_DRAM_BW_UTIL,
}

// migState is a MIG-enabled GPU's instances. The handles and identities are
// enumerated on the slow tier (instances are created and destroyed by an
// administrator, not per tick); memory, processes and GPM are read per tick.
type migState struct {
	insts  []*migInst
	gpmOff bool // GPM on instances answered NOT_SUPPORTED: not asked again
}

// migInst is one MIG device and its GPM sample pair.
type migInst struct {
	dev   Device
	id    sampler.MIGDevice // identity fields only
	memV1 bool              // GetMemoryInfo_v2 unsupported here: use v1
	// GPM, as gpmState: samples used alternately.
	samples [2]nvml.GpmSample
	next    int
	have    bool
	at      time.Time
	vals    [len(migGPMMetrics)]sampler.Metric
}

func (in *migInst) free() {
	for i, smp := range in.samples {
		if smp != nil {
			smp.Free()
			in.samples[i] = nil
		}
	}
	in.have = false
}

func (st *migState) free() {
	for _, in := range st.insts {
		if in != nil { // nil: handed over to a re-enumerated instance
			in.free()
		}
	}
	st.insts = nil
}

// migProfile names an instance as nvidia-smi does: "<g>g.<mem>gb", with a
// "<c>c." prefix when the compute instance uses fewer slices than its GPU
// instance. Memory rounds up to whole GiB, which reproduces NVIDIA's names
// (H200 72704 MB → "3g.71gb", A100 4864 MB → "1g.5gb").
func migProfile(a nvml.DeviceAttributes) string {
	if a.GpuInstanceSliceCount == 0 {
		return ""
	}
	gb := (a.MemorySizeMB + 1023) / 1024
	name := fmt.Sprintf("%dg.%dgb", a.GpuInstanceSliceCount, gb)
	if c := a.ComputeInstanceSliceCount; c > 0 && c < a.GpuInstanceSliceCount {
		name = fmt.Sprintf("%dc.%s", c, name)
	}
	return name
}

// enumerateMIG refreshes the instance list of a MIG-enabled GPU; on a GPU
// without MIG it frees what an earlier tick found. An instance that stays
// (same GPU and compute instance) keeps its GPM samples.
func (s *Source) enumerateMIG(g *gpuReader, enabled bool) {
	st := &g.mig
	if !enabled {
		st.free()
		return
	}
	if !g.want(cMIGDevices) {
		return
	}
	n, r := g.dev.GetMaxMigDeviceCount()
	if !g.ok(cMIGDevices, r) {
		return
	}
	var insts []*migInst
	for i := range n {
		md, r := g.dev.GetMigDeviceHandleByIndex(i)
		if r == nvml.ERROR_GPU_IS_LOST {
			g.lost = true
			return
		}
		if r != nvml.SUCCESS || md == nil {
			continue // NOT_FOUND: no instance in this slot
		}
		id := sampler.MIGDevice{Index: i}
		id.GPUInstance, _ = md.GetGpuInstanceId()
		id.ComputeInstance, _ = md.GetComputeInstanceId()
		id.UUID, _ = md.GetUUID()
		if a, r := md.GetAttributes(); r == nvml.SUCCESS {
			id.Profile, id.SMSlices = migProfile(a), int(a.ComputeInstanceSliceCount)
		}
		in := &migInst{dev: md, id: id}
		for k, old := range st.insts {
			if old != nil && old.id.GPUInstance == id.GPUInstance && old.id.ComputeInstance == id.ComputeInstance {
				in.samples, in.next, in.have, in.at, in.vals = old.samples, old.next, old.have, old.at, old.vals
				in.memV1 = old.memV1
				st.insts[k] = nil // handed over: not freed below
				break
			}
		}
		insts = append(insts, in)
	}
	st.free()
	st.insts = insts
}

// readMIG fills out.MIGDevices for this tick.
func (s *Source) readMIG(g *gpuReader, out *sampler.GPU, now time.Time) {
	st := &g.mig
	if !out.MIG || len(st.insts) == 0 || g.lost {
		return
	}
	devs := make([]sampler.MIGDevice, len(st.insts))
	for i, in := range st.insts {
		d := in.id
		readMIGMemory(g, in, &d)
		if procs, r := in.dev.GetComputeRunningProcesses(); r == nvml.SUCCESS && len(procs) > 0 {
			d.Procs = mergeProcs(make([]sampler.GPUProc, 0, len(procs)), procs, "C")
		} else if r == nvml.ERROR_GPU_IS_LOST {
			g.lost = true
		}
		s.readMIGGPM(g, in, &d, now)
		devs[i] = d
	}
	out.MIGDevices = devs
}

func readMIGMemory(g *gpuReader, in *migInst, d *sampler.MIGDevice) {
	if !in.memV1 {
		m, r := in.dev.GetMemoryInfo_v2()
		switch r {
		case nvml.SUCCESS:
			d.MemUsed, d.MemTotal = some(m.Used), some(m.Total)
			return
		case nvml.ERROR_NOT_SUPPORTED, nvml.ERROR_FUNCTION_NOT_FOUND, nvml.ERROR_ARGUMENT_VERSION_MISMATCH:
			in.memV1 = true
		case nvml.ERROR_GPU_IS_LOST:
			g.lost = true
			return
		default:
			return // n/a this tick
		}
	}
	if m, r := in.dev.GetMemoryInfo(); r == nvml.SUCCESS {
		d.MemUsed, d.MemTotal = some(m.Used), some(m.Total)
	}
}

// readMIGGPM reads GPM for the instance's GPU instance through the parent
// (nvmlGpmMigSampleGet), with the same two-sample scheme as readGPM. Values
// stay n/a while warming up or when the driver offers no GPM on MIG.
func (s *Source) readMIGGPM(g *gpuReader, in *migInst, d *sampler.MIGDevice, now time.Time) {
	st := &g.mig
	// Not g.skip[cGPM]: a driver may refuse whole-GPU GPM with MIG enabled
	// and still offer it per GPU instance.
	if st.gpmOff || g.lost {
		return
	}
	if in.samples[0] == nil {
		for i := range in.samples {
			smp, r := s.lib.GpmSampleAlloc()
			if r != nvml.SUCCESS {
				in.free()
				st.gpmOff = r == nvml.ERROR_NOT_SUPPORTED || r == nvml.ERROR_FUNCTION_NOT_FOUND
				return
			}
			in.samples[i] = smp
		}
	}
	apply := func() { d.SMActive, d.TensorActive, d.DRAMActive = in.vals[0], in.vals[1], in.vals[2] }
	if in.have && now.Sub(in.at) < gpmMinGap && !now.Before(in.at) {
		apply() // too soon for a new interval: repeat the last one
		return
	}
	if r := g.dev.GpmMigSampleGet(d.GPUInstance, in.samples[in.next]); r != nvml.SUCCESS {
		g.lost = g.lost || r == nvml.ERROR_GPU_IS_LOST
		st.gpmOff = r == nvml.ERROR_NOT_SUPPORTED || r == nvml.ERROR_FUNCTION_NOT_FOUND
		in.have = false
		return
	}
	if !in.have {
		in.have, in.at, in.next = true, now, 1-in.next
		in.vals = [len(migGPMMetrics)]sampler.Metric{} // warming up
		return
	}
	m := s.gpmReq
	m.NumMetrics = uint32(len(migGPMMetrics))
	m.Sample1, m.Sample2 = in.samples[1-in.next], in.samples[in.next]
	for i, id := range migGPMMetrics {
		m.Metrics[i] = nvml.GpmMetric{MetricId: uint32(id)}
	}
	in.at, in.next = now, 1-in.next
	r := s.lib.GpmMetricsGet(m)
	m.Sample1, m.Sample2 = nil, nil
	if r != nvml.SUCCESS {
		in.vals = [len(migGPMMetrics)]sampler.Metric{}
		return
	}
	for i := range migGPMMetrics {
		in.vals[i] = sampler.NA
		if nvml.Return(m.Metrics[i].NvmlReturn) == nvml.SUCCESS {
			in.vals[i] = sampler.Some(m.Metrics[i].Value)
		}
	}
	apply()
}
