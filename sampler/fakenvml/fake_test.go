package fakenvml_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

func handle(t *testing.T, lib fakenvml.NVML, i int) nvml.Device {
	t.Helper()
	d, r := lib.DeviceGetHandleByIndex(i)
	if r != nvml.SUCCESS {
		t.Fatalf("handle %d: %v", i, r)
	}
	return d
}

func TestAnswersFromTruth(t *testing.T) {
	truth := fakenvml.BaseTruth(4, "")
	truth[2].Power = sampler.Some(612.25)
	truth[2].PCIeRx = sampler.Some(3 << 20)
	truth[2].Procs = []sampler.GPUProc{{PID: 42, Type: "C+G", MemUsed: sampler.Some(1 << 30)}, {PID: 43, Type: "G"}}
	f := fakenvml.New(fakenvml.Config{Truth: func() []sampler.GPU { return truth }})
	lib := f.Interface()
	if n, _ := lib.DeviceGetCount(); n != 4 {
		t.Fatalf("count = %d, want len(truth)", n)
	}
	d := handle(t, lib, 2)
	if p, _ := d.GetPowerUsage(); p != 612250 {
		t.Errorf("power = %d mW", p)
	}
	if v, _ := d.GetPcieThroughput(nvml.PCIE_UTIL_RX_BYTES); v != 3<<10 {
		t.Errorf("pcie rx = %d KB/s", v)
	}
	c, _ := d.GetComputeRunningProcesses()
	g, _ := d.GetGraphicsRunningProcesses()
	if len(c) != 1 || c[0].Pid != 42 || c[0].UsedGpuMemory != 1<<30 || len(g) != 2 || g[1].UsedGpuMemory != ^uint64(0) {
		t.Errorf("compute %+v graphics %+v", c, g)
	}
	if _, r := d.GetFanSpeed(); r != nvml.ERROR_NOT_SUPPORTED {
		t.Errorf("fan on SXM = %v, want NOT_SUPPORTED", r)
	}
	if v, _ := d.GetCpuAffinity(256); len(v) != 4 || v[0] != 0xff<<56 || v[1] != 1<<48-1 { // "56-111,168-223"
		t.Errorf("affinity words = %x", v)
	}
	if uuid, _ := d.GetUUID(); uuid != fakenvml.UUID(2) {
		t.Errorf("uuid = %q", uuid)
	}
}

func TestNAReasonPicksReturn(t *testing.T) {
	truth := fakenvml.BaseTruth(1, "")
	truth[0].Temp = sampler.NA
	truth[0].NA["temp"] = "no permission"
	f := fakenvml.New(fakenvml.Config{Truth: func() []sampler.GPU { return truth }})
	if _, r := handle(t, f.Interface(), 0).GetTemperature(nvml.TEMPERATURE_GPU); r != nvml.ERROR_NO_PERMISSION {
		t.Errorf("temp = %v, want NO_PERMISSION", r)
	}
}

// TestDeterministicIdentity: every GPU's UUID and bus id are distinct, are
// what fakenvml.UUID and BusID say (tests and the demo name GPUs by them),
// and are the same in every fake.
func TestDeterministicIdentity(t *testing.T) {
	seen := map[string]bool{}
	lib := fakenvml.New(fakenvml.Config{GPUs: 16}).Interface()
	for i := range 16 {
		for _, id := range []string{fakenvml.UUID(i), fakenvml.BusID(i)} {
			if seen[id] {
				t.Errorf("duplicate id %q", id)
			}
			seen[id] = true
		}
		if got, r := handle(t, lib, i).GetUUID(); r != nvml.SUCCESS || got != fakenvml.UUID(i) {
			t.Errorf("GPU %d: UUID %q (%v), fakenvml.UUID says %q", i, got, r, fakenvml.UUID(i))
		}
	}
	a, _ := handle(t, fakenvml.New(fakenvml.Config{GPUs: 2}).Interface(), 1).GetUUID()
	b, _ := handle(t, fakenvml.New(fakenvml.Config{GPUs: 2}).Interface(), 1).GetUUID()
	if a != b {
		t.Errorf("UUID differs between fakes: %q %q", a, b)
	}
}

func TestFaultsAndCalls(t *testing.T) {
	f := fakenvml.New(fakenvml.Config{GPUs: 2})
	lib := f.Interface()
	d0, d1 := handle(t, lib, 0), handle(t, lib, 1)
	f.SetFault(1, "GetPowerUsage", nvml.ERROR_NO_PERMISSION)
	if _, r := d1.GetPowerUsage(); r != nvml.ERROR_NO_PERMISSION {
		t.Errorf("faulted call = %v", r)
	}
	if _, r := d0.GetPowerUsage(); r != nvml.SUCCESS {
		t.Errorf("other GPU = %v", r)
	}
	f.SetFault(1, "*", nvml.ERROR_GPU_IS_LOST)
	if _, r := d1.GetName(); r != nvml.ERROR_GPU_IS_LOST {
		t.Errorf("wildcard fault = %v", r)
	}
	f.ClearFault(1, "*")
	f.ClearFault(1, "GetPowerUsage")
	if _, r := d1.GetPowerUsage(); r != nvml.SUCCESS {
		t.Errorf("after ClearFault = %v", r)
	}
	if c := f.Calls(1, "GetPowerUsage"); c != 2 {
		t.Errorf("calls = %d, want 2", c)
	}
	f.SetFault(0, "NoSuchMethod", nvml.ERROR_UNKNOWN) // ignored, no panic
	f.SetFault(99, "GetName", nvml.ERROR_UNKNOWN)     // no such GPU: ignored
	if !slices.Contains(fakenvml.Methods(), "GetProcessUtilization") {
		t.Errorf("Methods() = %v", fakenvml.Methods())
	}
	f.SetFault(fakenvml.LibraryGPU, "Init", nvml.ERROR_LIBRARY_NOT_FOUND)
	if r := lib.Init(); r != nvml.ERROR_LIBRARY_NOT_FOUND {
		t.Errorf("Init = %v", r)
	}
}

// TestFaultsConcurrently: faults are set at run time while another
// goroutine reads (run with -race).
func TestFaultsConcurrently(t *testing.T) {
	f := fakenvml.New(fakenvml.Config{GPUs: 2})
	d := handle(t, f.Interface(), 0)
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 200 {
			d.GetUtilizationRates()
			d.GetProcessUtilization(0)
		}
	})
	for range 200 {
		f.SetFault(0, "GetUtilizationRates", nvml.ERROR_UNKNOWN)
		f.ClearFault(0, "GetUtilizationRates")
	}
	wg.Wait()
}

func TestXidDeliveredOnce(t *testing.T) {
	var mu sync.Mutex
	truth := fakenvml.BaseTruth(2, "")
	get := func() []sampler.GPU { mu.Lock(); defer mu.Unlock(); return truth }
	f := fakenvml.New(fakenvml.Config{Truth: get})
	lib := f.Interface()
	set, _ := lib.EventSetCreate()
	for i := range 2 {
		if r := handle(t, lib, i).RegisterEvents(nvml.EventTypeXidCriticalError, set); r != nvml.SUCCESS {
			t.Fatalf("register: %v", r)
		}
	}
	if _, r := set.Wait(0); r != nvml.ERROR_TIMEOUT {
		t.Fatalf("empty set: %v", r)
	}
	next := fakenvml.BaseTruth(2, "")
	next[1].Xids = []sampler.Xid{{Time: time.Unix(100, 0), Code: 79}}
	mu.Lock()
	truth = next
	mu.Unlock()
	e, r := set.Wait(0)
	if r != nvml.SUCCESS || e.EventData != 79 || e.Device != handle(t, lib, 1) {
		t.Fatalf("event = %+v, %v", e, r)
	}
	for range 3 {
		if _, r := set.Wait(0); r != nvml.ERROR_TIMEOUT {
			t.Fatalf("Xid delivered twice: %v", r)
		}
	}
}

func TestTopologyAncestor(t *testing.T) {
	topo := &sampler.Topology{Links: [][]string{{"X", "PIX", "SYS"}, {"PIX", "X", "PHB"}, {"SYS", "PHB", "X"}}}
	f := fakenvml.New(fakenvml.Config{GPUs: 3, Topology: topo})
	lib := f.Interface()
	want := map[[2]int]nvml.GpuTopologyLevel{{0, 1}: nvml.TOPOLOGY_SINGLE, {0, 2}: nvml.TOPOLOGY_SYSTEM, {2, 1}: nvml.TOPOLOGY_HOSTBRIDGE}
	for p, lvl := range want {
		got, r := handle(t, lib, p[0]).GetTopologyCommonAncestor(handle(t, lib, p[1]))
		if r != nvml.SUCCESS || got != lvl {
			t.Errorf("%v: %v %v, want %v", p, got, r, lvl)
		}
	}
}

func TestGPM(t *testing.T) {
	truth := fakenvml.BaseTruth(2, "")
	truth[1].SMActive, truth[1].NVLinkTx = sampler.Some(62.5), sampler.Some(300<<20)
	f := fakenvml.New(fakenvml.Config{Truth: func() []sampler.GPU { return truth }})
	lib := f.Interface()
	d := handle(t, lib, 1)
	s1, _ := lib.GpmSampleAlloc()
	s2, _ := lib.GpmSampleAlloc()
	if sup, r := d.GpmQueryDeviceSupport(); r != nvml.SUCCESS || sup.IsSupportedDevice != 1 {
		t.Fatalf("support = %+v %v", sup, r)
	}
	d.GpmSampleGet(s1)
	d.GpmSampleGet(s2)
	m := &nvml.GpmMetricsGetType{NumMetrics: 2, Sample1: s1, Sample2: s2}
	m.Metrics[0].MetricId = uint32(nvml.GPM_METRIC_SM_UTIL)
	m.Metrics[1].MetricId = uint32(nvml.GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC)
	if r := lib.GpmMetricsGet(m); r != nvml.SUCCESS || m.Metrics[0].Value != 62.5 || m.Metrics[1].Value != 300 {
		t.Errorf("metrics = %v %+v", r, m.Metrics[:2])
	}

	a100 := fakenvml.New(fakenvml.Config{GPUs: 1, Model: fakenvml.ModelA100}).Interface()
	if _, r := handle(t, a100, 0).GpmQueryDeviceSupport(); r != nvml.ERROR_NOT_SUPPORTED {
		t.Errorf("A100 GPM support = %v", r)
	}
	if a, _ := handle(t, a100, 0).GetArchitecture(); a != nvml.DEVICE_ARCH_AMPERE {
		t.Errorf("A100 arch = %v", a)
	}
}

func TestNVLinksToSwitches(t *testing.T) {
	d := handle(t, fakenvml.New(fakenvml.Config{GPUs: 2}).Interface(), 0)
	if s, r := d.GetNvLinkState(17); r != nvml.SUCCESS || s != nvml.FEATURE_ENABLED {
		t.Errorf("link 17 = %v %v", s, r)
	}
	if _, r := d.GetNvLinkState(18); r != nvml.ERROR_INVALID_ARGUMENT {
		t.Errorf("link 18 = %v, want INVALID_ARGUMENT", r)
	}
	if typ, _ := d.GetNvLinkRemoteDeviceType(3); typ != nvml.NVLINK_DEVICE_TYPE_SWITCH {
		t.Errorf("remote type = %v", typ)
	}
}
