package fakenvml_test

import (
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

func TestMIGAnswersFromTruth(t *testing.T) {
	truth := fakenvml.BaseTruth(2, fakenvml.ModelH200)
	sim.EnableMIG(&truth[1], "1g.18gb", 7)
	truth[1].MIGDevices[4].MemUsed = sampler.Some(5 << 30)
	truth[1].MIGDevices[4].SMActive = sampler.Some(62.5)
	truth[1].MIGDevices[4].Procs = []sampler.GPUProc{{PID: 77, Type: "C", MemUsed: sampler.Some(4 << 30)}}
	if truth[0].MIG || truth[0].NA["util"] != "" {
		t.Fatal("EnableMIG touched another GPU")
	}
	f := fakenvml.New(fakenvml.Config{Truth: func() []sampler.GPU { return truth }})
	lib := f.Interface()

	if _, r := handle(t, lib, 0).GetMigDeviceHandleByIndex(0); r == nvml.SUCCESS {
		t.Error("GPU 0 without MIG handed out a MIG device")
	}
	d := handle(t, lib, 1)
	if n, r := d.GetMaxMigDeviceCount(); r != nvml.SUCCESS || n != 7 {
		t.Errorf("max MIG devices = %d, %v", n, r)
	}
	md, r := d.GetMigDeviceHandleByIndex(4)
	if r != nvml.SUCCESS {
		t.Fatalf("MIG handle 4: %v", r)
	}
	if gi, _ := md.GetGpuInstanceId(); gi != truth[1].MIGDevices[4].GPUInstance {
		t.Errorf("GPU instance %d", gi)
	}
	if u, _ := md.GetUUID(); u != sim.MIGUUID(1, 4) {
		t.Errorf("UUID %q", u)
	}
	a, _ := md.GetAttributes()
	if a.GpuInstanceSliceCount != 1 || a.ComputeInstanceSliceCount != 1 || a.MemorySizeMB != 18432 {
		t.Errorf("attributes %+v", a)
	}
	if m, _ := md.GetMemoryInfo_v2(); m.Used != 5<<30 || m.Total != 18432<<20 {
		t.Errorf("memory %+v", m)
	}
	if p, _ := md.GetComputeRunningProcesses(); len(p) != 1 || p[0].Pid != 77 || p[0].UsedGpuMemory != 4<<30 {
		t.Errorf("procs %+v", p)
	}
	if parent, _ := md.GetDeviceHandleFromMigDeviceHandle(); parent != d {
		t.Error("parent handle differs")
	}

	// GPM per GPU instance: two samples, metrics as the truth says.
	s1, _ := lib.GpmSampleAlloc()
	s2, _ := lib.GpmSampleAlloc()
	gi := truth[1].MIGDevices[4].GPUInstance
	if r1, r2 := d.GpmMigSampleGet(gi, s1), d.GpmMigSampleGet(gi, s2); r1 != nvml.SUCCESS || r2 != nvml.SUCCESS {
		t.Fatalf("GpmMigSampleGet: %v %v", r1, r2)
	}
	m := &nvml.GpmMetricsGetType{NumMetrics: 2, Sample1: s1, Sample2: s2}
	m.Metrics[0].MetricId = uint32(nvml.GPM_METRIC_SM_UTIL)
	m.Metrics[1].MetricId = uint32(nvml.GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC)
	if r := lib.GpmMetricsGet(m); r != nvml.SUCCESS || m.Metrics[0].Value != 62.5 ||
		nvml.Return(m.Metrics[1].NvmlReturn) != nvml.ERROR_NOT_SUPPORTED {
		t.Errorf("MIG GPM: %v %+v %+v", r, m.Metrics[0], m.Metrics[1])
	}
	// A whole-GPU sample and an instance sample do not make an interval.
	if r := d.GpmSampleGet(s1); r != nvml.SUCCESS {
		t.Fatalf("GpmSampleGet: %v", r)
	}
	if r := lib.GpmMetricsGet(m); r != nvml.ERROR_INVALID_ARGUMENT {
		t.Errorf("mixed samples: %v, want INVALID_ARGUMENT", r)
	}

	// Faults and call counts work for MIG calls, against the parent GPU.
	f.SetFault(1, "GetMigDeviceHandleByIndex", nvml.ERROR_GPU_IS_LOST)
	if _, r := d.GetMigDeviceHandleByIndex(4); r != nvml.ERROR_GPU_IS_LOST {
		t.Errorf("fault not injected: %v", r)
	}
	if c := f.Calls(1, "GetMigDeviceHandleByIndex"); c != 2 {
		t.Errorf("GetMigDeviceHandleByIndex counted %d, want 2", c)
	}
}

func TestEnableMIGUnknownProfileIsIgnored(t *testing.T) {
	truth := fakenvml.BaseTruth(1, fakenvml.ModelH200)
	sim.EnableMIG(&truth[0], "9g.999gb", 2)
	if truth[0].MIG || truth[0].MIGDevices != nil {
		t.Errorf("unknown profile enabled MIG: %+v", truth[0].MIGDevices)
	}
}
