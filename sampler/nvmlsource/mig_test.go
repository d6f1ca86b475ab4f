package nvmlsource

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
	"github.com/gpuscope/gpuscope/sampler/sim"
)

// migGPU is the MIG GPU of the test node.
const migGPU = 3

// migTruth is varied(base, k) with GPU migGPU split into n instances of
// profile, each busy in its own way at tick k, with a process or two.
func migTruth(base []sampler.GPU, k int, profile string, n int) []sampler.GPU {
	out := varied(base, k)
	g := &out[migGPU]
	sim.EnableMIG(g, profile, n)
	g.Procs = nil
	for i := range g.MIGDevices {
		md := &g.MIGDevices[i]
		v := float64((i*11 + k*7) % 80)
		md.SMActive, md.TensorActive, md.DRAMActive = sampler.Some(v+10), sampler.Some(v/2), sampler.Some(v+3.5)
		md.MemUsed = sampler.Some(float64(uint64(i+1)<<30 + uint64(k)<<20))
		md.Procs = []sampler.GPUProc{{PID: 5000 + i*10, Type: "C", MemUsed: sampler.Some(float64(uint64(i+1) << 29))}}
		if i%2 == 1 {
			md.Procs = append(md.Procs, sampler.GPUProc{PID: 5000 + i*10 + 1, Type: "C", MemUsed: sampler.Some(64 << 20)})
		}
		// The parent lists every instance's processes, without utilisation.
		g.Procs = append(g.Procs, md.Procs...)
	}
	return out
}

func TestMIGRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		profile string
		n       int
	}{{"3g.71gb", 2}, {"1g.18gb", 7}} {
		t.Run(tc.profile, func(t *testing.T) {
			base := fakenvml.BaseTruth(8, fakenvml.ModelH200)
			f, box, src := newFake(t, 8, fakenvml.ModelH200, nil, base)
			for k := range 4 {
				truth := migTruth(base, k, tc.profile, tc.n)
				box.set(truth)
				gpus, problems := src.Sample(tickTime(k))
				if len(problems) > 0 {
					t.Fatalf("tick %d: problems %v", k, problems)
				}
				got := gpus[migGPU]
				if len(got.MIGDevices) != tc.n {
					t.Fatalf("tick %d: %d MIG devices, want %d", k, len(got.MIGDevices), tc.n)
				}
				if k == 0 {
					for _, md := range got.MIGDevices {
						if md.SMActive.OK {
							t.Errorf("MIG %d: GPM value before two samples", md.Index)
						}
					}
					continue
				}
				for i := range gpus {
					want := truth[i]
					if d := diffGPU(want, gpus[i]); len(d) > 0 {
						t.Fatalf("tick %d GPU %d differs:\n%s", k, i, strings.Join(d, "\n"))
					}
				}
			}
			if c := f.Calls(migGPU, "GetUtilizationRates"); c != 0 {
				t.Errorf("GetUtilizationRates called %d times on a MIG GPU", c)
			}
			if c := f.Calls(migGPU, "GetProcessUtilization"); c != 0 {
				t.Errorf("GetProcessUtilization called %d times on a MIG GPU", c)
			}
			if f.Calls(0, "GetUtilizationRates") == 0 {
				t.Error("GPU 0 (no MIG) was not asked for utilisation")
			}
			// Handles are enumerated on the slow tier only: once in 4 ticks.
			if c := f.Calls(migGPU, "GetMaxMigDeviceCount"); c != 1 {
				t.Errorf("GetMaxMigDeviceCount called %d times, want 1 (slow tier)", c)
			}
		})
	}
}

// TestMIGProfileName: names follow nvidia-smi for H200 and A100 sizes.
func TestMIGProfileName(t *testing.T) {
	for _, tc := range []struct {
		a    nvml.DeviceAttributes
		want string
	}{
		{nvml.DeviceAttributes{GpuInstanceSliceCount: 3, ComputeInstanceSliceCount: 3, MemorySizeMB: 72704}, "3g.71gb"},
		{nvml.DeviceAttributes{GpuInstanceSliceCount: 1, ComputeInstanceSliceCount: 1, MemorySizeMB: 18432}, "1g.18gb"},
		{nvml.DeviceAttributes{GpuInstanceSliceCount: 1, ComputeInstanceSliceCount: 1, MemorySizeMB: 4864}, "1g.5gb"},
		{nvml.DeviceAttributes{GpuInstanceSliceCount: 7, ComputeInstanceSliceCount: 7, MemorySizeMB: 40192}, "7g.40gb"},
		{nvml.DeviceAttributes{GpuInstanceSliceCount: 3, ComputeInstanceSliceCount: 1, MemorySizeMB: 72704}, "1c.3g.71gb"},
		{nvml.DeviceAttributes{}, ""},
	} {
		if got := migProfile(tc.a); got != tc.want {
			t.Errorf("migProfile(%+v) = %q, want %q", tc.a, got, tc.want)
		}
	}
}

// TestMIGInstancesChange: instances destroyed or created show up on the next
// slow tier, and MIG turned off clears them.
func TestMIGInstancesChange(t *testing.T) {
	base := fakenvml.BaseTruth(8, fakenvml.ModelH200)
	_, box, src := newFake(t, 8, fakenvml.ModelH200, nil, base)
	box.set(migTruth(base, 0, "1g.18gb", 7))
	src.Sample(tickTime(0))
	box.set(migTruth(base, 1, "1g.18gb", 3))
	gpus, _ := src.Sample(tickTime(1)) // fast tier: handles cached, gone ones n/a
	if n := len(gpus[migGPU].MIGDevices); n != 7 {
		t.Fatalf("fast tick: %d instances, want the 7 cached", n)
	}
	if gpus[migGPU].MIGDevices[5].MemTotal.OK {
		t.Error("a destroyed instance still reads memory")
	}
	gpus, _ = src.Sample(tickTime(0).Add(DefaultSlowEvery))
	if n := len(gpus[migGPU].MIGDevices); n != 3 {
		t.Fatalf("after the slow tier: %d instances, want 3", n)
	}
	off := varied(base, 2)
	box.set(off)
	gpus, _ = src.Sample(tickTime(0).Add(2 * DefaultSlowEvery))
	if g := gpus[migGPU]; g.MIG || g.MIGDevices != nil || !g.Util.OK || g.NA["util"] != "" {
		t.Errorf("MIG off: MIG=%v devices=%d util=%+v na=%q", g.MIG, len(g.MIGDevices), g.Util, g.NA["util"])
	}
	if !reflect.DeepEqual(sortedProcs(gpus[migGPU].Procs), sortedProcs(off[migGPU].Procs)) {
		t.Errorf("MIG off: procs %+v", gpus[migGPU].Procs)
	}
}

// TestMIGEnumerationNotSupported: a driver that cannot list MIG devices
// leaves the GPU readable, says why, and is not asked again.
func TestMIGEnumerationNotSupported(t *testing.T) {
	base := fakenvml.BaseTruth(8, fakenvml.ModelH200)
	f, box, src := newFake(t, 8, fakenvml.ModelH200, nil, base)
	f.SetFault(migGPU, "GetMaxMigDeviceCount", nvml.ERROR_NOT_SUPPORTED)
	for k := range 3 {
		box.set(migTruth(base, k, "3g.71gb", 2))
		gpus, problems := src.Sample(tickTime(0).Add(DefaultSlowEvery * time.Duration(k)))
		g := gpus[migGPU]
		if len(problems) > 0 || g.Lost || !g.MIG || g.MIGDevices != nil || !g.Power.OK {
			t.Fatalf("tick %d: problems %v, GPU %+v", k, problems, g)
		}
		if g.NA["mig_devices"] != "not supported" || g.NA["util"] != sampler.ReasonMIG {
			t.Errorf("tick %d: NA = %v", k, g.NA)
		}
	}
	if c := f.Calls(migGPU, "GetMaxMigDeviceCount"); c != 1 {
		t.Errorf("GetMaxMigDeviceCount asked %d times after NOT_SUPPORTED, want 1", c)
	}
}

// TestMIGGPULost: GPU_IS_LOST from a MIG call marks the GPU lost, once.
func TestMIGGPULost(t *testing.T) {
	base := fakenvml.BaseTruth(8, fakenvml.ModelH200)
	f, box, src := newFake(t, 8, fakenvml.ModelH200, nil, base)
	box.set(migTruth(base, 0, "3g.71gb", 2))
	src.Sample(tickTime(0))
	f.SetFault(migGPU, "GpmMigSampleGet", nvml.ERROR_GPU_IS_LOST) // asked only on MIG
	gpus, problems := src.Sample(tickTime(1))
	if !gpus[migGPU].Lost || len(problems) != 1 {
		t.Fatalf("lost = %v, problems %v", gpus[migGPU].Lost, problems)
	}
	if gpus[0].Lost || !gpus[0].Util.OK {
		t.Error("another GPU was affected")
	}
}

// TestMIGGPMWithoutDeviceGPM: whole-GPU GPM refused (as a driver may do with
// MIG enabled) does not hide the per-instance GPM.
func TestMIGGPMWithoutDeviceGPM(t *testing.T) {
	base := fakenvml.BaseTruth(8, fakenvml.ModelH200)
	f, box, src := newFake(t, 8, fakenvml.ModelH200, nil, base)
	f.SetFault(migGPU, "GpmSampleGet", nvml.ERROR_NOT_SUPPORTED)
	var gpus []sampler.GPU
	for k := range 3 {
		box.set(migTruth(base, k, "3g.71gb", 2))
		gpus, _ = src.Sample(tickTime(k))
	}
	g := gpus[migGPU]
	if g.SMActive.OK || g.NA["sm_active"] != "not supported" {
		t.Errorf("device GPM: %+v, NA %q", g.SMActive, g.NA["sm_active"])
	}
	want := migTruth(base, 2, "3g.71gb", 2)[migGPU].MIGDevices
	for i, md := range g.MIGDevices {
		if md.SMActive != want[i].SMActive || md.DRAMActive != want[i].DRAMActive {
			t.Errorf("MIG %d GPM: got SM %+v DRAM %+v, want %+v %+v", i, md.SMActive, md.DRAMActive, want[i].SMActive, want[i].DRAMActive)
		}
	}
}
