package nvmlsource

import (
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// What real drivers answered other tools (docs/driver-compatibility.md),
// played by the fake against the production reader.

// TestNotSupportedIsCached: readings a GPU model lacks (ECC on a T4 or a
// GeForce, a power limit on a laptop part, row remapping before Ampere)
// are n/a "not supported", asked once, and said in no problem line.
func TestNotSupportedIsCached(t *testing.T) {
	cases := []struct {
		name, method, field string
		calls               int // per tick of the slow tier
	}{
		{"ecc", "GetTotalEccErrors", sampler.NAECCUncorrected, 2}, // corrected and uncorrected
		{"power_limit", "GetEnforcedPowerLimit", sampler.NAPowerLimit, 1},
		{"remapped_rows", "GetRemappedRows", sampler.NARemappedRows, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, box, src := newFake(t, 2, "", nil, nil)
			f.SetFault(1, c.method, nvml.ERROR_NOT_SUPPORTED)
			gpus, _, problems := run(box, src, tableTicks)
			if r := gpus[1].NA[c.field]; r != reasonNotSupported {
				t.Errorf("NA[%s] = %q", c.field, r)
			}
			if n := f.Calls(1, c.method); n != c.calls {
				t.Errorf("%s called %d times, want %d", c.method, n, c.calls)
			}
			if len(problems) != 0 {
				t.Errorf("problems: %q", problems)
			}
		})
	}
}

// TestGPMVersionMismatchIsNotSupported: a driver that does not know the
// version of the GPM support struct go-nvml passes answers
// ARGUMENT_VERSION_MISMATCH: GPM is n/a for good, not an error every tick.
func TestGPMVersionMismatchIsNotSupported(t *testing.T) {
	f, box, src := newFake(t, 2, "", nil, nil)
	f.SetFault(0, "GpmQueryDeviceSupport", nvml.ERROR_ARGUMENT_VERSION_MISMATCH)
	gpus, _, problems := run(box, src, 3)
	if r := gpus[0].NA[sampler.NASMActive]; r != reasonNotInDriver || len(problems) != 0 {
		t.Errorf("NA[sm_active] = %q, problems %q", r, problems)
	}
	if n := f.Calls(0, "GpmQueryDeviceSupport"); n != 1 {
		t.Errorf("asked %d times, want 1", n)
	}
}

// TestMemoryV2FunctionNotFound: 510.39.01 exports nvmlDeviceGetMemoryInfo_v2
// but answers FUNCTION_NOT_FOUND: memory comes from GetMemoryInfo, silently.
func TestMemoryV2FunctionNotFound(t *testing.T) {
	f, box, src := newFake(t, 2, "", nil, nil)
	f.SetFault(1, "GetMemoryInfo_v2", nvml.ERROR_FUNCTION_NOT_FOUND)
	gpus, truth, problems := run(box, src, 3)
	if gpus[1].MemUsed != truth[1].MemUsed || len(problems) != 0 {
		t.Errorf("memory %+v, want %+v; problems %q", gpus[1].MemUsed, truth[1].MemUsed, problems)
	}
	if n := f.Calls(1, "GetMemoryInfo_v2"); n != 1 {
		t.Errorf("v2 asked %d times, want 1", n)
	}
}

// TestWSLPartialNVML: WSL2's NVML has no utilisation or process list and
// its GetMemoryInfo_v2 answers UNKNOWN; memory still comes from v1, the
// rest is n/a, and the dashboard gets no error lines for what WSL lacks.
func TestWSLPartialNVML(t *testing.T) {
	f, box, src := newFake(t, 1, "", nil, nil)
	f.SetFault(0, "GetUtilizationRates", nvml.ERROR_NOT_SUPPORTED)
	f.SetFault(0, "GetComputeRunningProcesses", nvml.ERROR_NOT_SUPPORTED)
	f.SetFault(0, "GetGraphicsRunningProcesses", nvml.ERROR_NOT_SUPPORTED)
	f.SetFault(0, "GetMemoryInfo_v2", nvml.ERROR_UNKNOWN)
	gpus, truth, problems := run(box, src, 3)
	g := gpus[0]
	if g.MemUsed != truth[0].MemUsed {
		t.Errorf("memory %+v (%q), want %+v from v1", g.MemUsed, g.NA[sampler.NAMemUsed], truth[0].MemUsed)
	}
	if g.Util.OK || g.NA[sampler.NAUtil] != reasonNotSupported || g.NA[sampler.NAProcs] != reasonNotSupported {
		t.Errorf("util %+v NA %v", g.Util, g.NA)
	}
	if len(problems) != 0 {
		t.Errorf("problems: %q", problems)
	}
}

// TestImpossiblePIDsDropped: a libnvidia-ml whose process struct does not
// match the kernel module's (the 535 process-info change) lists PIDs no
// kernel hands out; they are dropped and said once, the real ones kept.
func TestImpossiblePIDsDropped(t *testing.T) {
	base := fakenvml.BaseTruth(2, "")
	_, box, src := newFake(t, 2, "", nil, base)
	var problems []string
	var gpus []sampler.GPU
	for k := range 3 {
		truth := varied(base, k)
		truth[1].Procs = append(truth[1].Procs,
			sampler.GPUProc{PID: 0, Type: "C", MemUsed: sampler.Some(1 << 20)},
			sampler.GPUProc{PID: 3_000_000_000, Type: "C", MemUsed: sampler.Some(1 << 20)})
		box.set(truth)
		var p []string
		gpus, p = src.Sample(tickTime(k))
		problems = append(problems, p...)
	}
	for _, p := range gpus[1].Procs {
		if p.PID <= 0 || p.PID > pidMaxLimit {
			t.Errorf("impossible PID %d kept", p.PID)
		}
	}
	if len(gpus[1].Procs) != 3 {
		t.Errorf("%d processes, want the 3 real ones", len(gpus[1].Procs))
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "GPU 1") || !strings.Contains(problems[0], "impossible PIDs") {
		t.Errorf("want one line about GPU 1: %q", problems)
	}
}

// TestNoEventsSaid: a driver or GPU without event support (or a container
// that may not create an event set) still reads every GPU, and says once
// that Xid errors are not watched live.
func TestNoEventsSaid(t *testing.T) {
	for _, method := range []string{"EventSetCreate", "RegisterEvents"} {
		t.Run(method, func(t *testing.T) {
			box := &truthBox{}
			box.set(varied(fakenvml.BaseTruth(2, ""), 0))
			f := fakenvml.New(fakenvml.Config{GPUs: 2, Truth: box.get})
			gpu := fakenvml.LibraryGPU
			if method == "RegisterEvents" {
				f.SetFault(0, method, nvml.ERROR_NOT_SUPPORTED)
				gpu = 1
			}
			f.SetFault(gpu, method, nvml.ERROR_NOT_SUPPORTED)
			src, err := New(f.Interface(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			gpus, _, problems := run(box, src, 3)
			if len(problems) != 1 || !strings.Contains(problems[0], "Xid") || !strings.Contains(problems[0], "dmesg") {
				t.Errorf("want one line about Xid events: %q", problems)
			}
			if !gpus[1].Util.OK {
				t.Errorf("GPU 1 not read")
			}
		})
	}
}

// TestRevokedDeviceOneLine: a container whose device access the host took
// back (systemd reloading its units) gets ERROR_UNKNOWN from every call;
// the dashboard says so in one line per GPU and tier, not one per field.
func TestRevokedDeviceOneLine(t *testing.T) {
	f, box, src := newFake(t, 3, "", nil, nil)
	var problems []string
	for k := range tableTicks {
		if k == 2 {
			f.SetFault(1, "*", nvml.ERROR_UNKNOWN)
		}
		box.set(varied(fakenvml.BaseTruth(3, ""), k))
		_, p := src.Sample(tickTime(k))
		problems = append(problems, p...)
	}
	if len(problems) == 0 || len(problems) > 2 {
		t.Fatalf("want one or two lines (fast tier, slow tier): %q", problems)
	}
	for _, p := range problems {
		if !strings.Contains(p, "GPU 1") || !strings.Contains(p, "ERROR_UNKNOWN") || !strings.Contains(p, "restart the container") {
			t.Errorf("line %q: want GPU 1, the error and the fix", p)
		}
	}
}

// TestVGPUGuestSkipsRemappedRows: in a vGPU guest the row-remapping query
// is refused by the host and logged as a kernel warning on every call; the
// reader does not make it there.
func TestVGPUGuestSkipsRemappedRows(t *testing.T) {
	f, box, src := vgpuGuest(t)
	gpus, _, _ := run(box, src, tableTicks)
	if n := f.Calls(0, "GetRemappedRows"); n != 0 {
		t.Errorf("GetRemappedRows called %d times in a vGPU guest", n)
	}
	if r := gpus[0].NA[sampler.NARemappedRows]; r != reasonVGPU {
		t.Errorf("NA[remapped_rows] = %q, want %q", r, reasonVGPU)
	}
}

// TestVGPUGuestSkipsGPM: a fractional vGPU guest cannot take GPM samples
// (the sample call fails every time); GPM is not asked there.
func TestVGPUGuestSkipsGPM(t *testing.T) {
	f, box, src := vgpuGuest(t)
	gpus, _, problems := run(box, src, 3)
	if n := f.Calls(1, "GpmSampleGet"); n != 0 {
		t.Errorf("GpmSampleGet called %d times in a vGPU guest", n)
	}
	if r := gpus[1].NA[sampler.NASMActive]; r != reasonVGPU || len(problems) != 0 {
		t.Errorf("NA[sm_active] = %q, problems %q", r, problems)
	}
}

// vgpuGuest is a fake of two vGPUs seen from their virtual machine.
func vgpuGuest(t *testing.T) (*fakenvml.Fake, *truthBox, *Source) {
	t.Helper()
	box := &truthBox{}
	box.set(varied(fakenvml.BaseTruth(2, ""), 0))
	f := fakenvml.New(fakenvml.Config{GPUs: 2, Truth: box.get, VGPUGuest: true})
	src, err := New(f.Interface(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return f, box, src
}
