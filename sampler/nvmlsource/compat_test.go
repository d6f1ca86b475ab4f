package nvmlsource

import (
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// Drivers that lack functions gpuscope calls (docs/driver-compatibility.md,
// the "missing symbol" rows). The fake panics where the real process would
// die, so each test fails where a call reaches a missing function.

// oldFake is a fake of driver version over n varied GPUs lacking missing,
// guarded as the live source is (Guarded).
func oldFake(t *testing.T, n int, version string, missing ...string) (*fakenvml.Fake, *truthBox, *Source) {
	t.Helper()
	box := &truthBox{}
	box.set(varied(fakenvml.BaseTruth(n, ""), 0))
	f := fakenvml.New(fakenvml.Config{GPUs: n, Truth: box.get, Driver: version, Missing: missing})
	src, err := New(Guarded(f.Interface()), Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { src.Close() })
	return f, box, src
}

// run samples ticks ticks and returns the last GPUs and every problem line.
func run(box *truthBox, src *Source, ticks int) ([]sampler.GPU, []sampler.GPU, []string) {
	var gpus, truth []sampler.GPU
	var problems []string
	for k := range ticks {
		truth = varied(fakenvml.BaseTruth(len(box.get()), ""), k)
		box.set(truth)
		g, p := src.Sample(tickTime(k))
		gpus, problems = g, append(problems, p...)
	}
	return gpus, truth, problems
}

func TestOldDriverClockEventsFallBack(t *testing.T) {
	f, box, src := oldFake(t, 2, "525.147.05", "nvmlDeviceGetCurrentClocksEventReasons")
	gpus, truth, problems := run(box, src, 3)
	for i := range gpus {
		if gpus[i].ClockEvents != truth[i].ClockEvents {
			t.Errorf("GPU %d clock events %+v, want %+v (through the older call)", i, gpus[i].ClockEvents, truth[i].ClockEvents)
		}
	}
	if f.Calls(0, "GetCurrentClocksThrottleReasons") != 3 { // through Guarded
		t.Errorf("older call made %d times, want 3", f.Calls(0, "GetCurrentClocksThrottleReasons"))
	}
	if len(problems) != 0 {
		t.Errorf("the fallback reads the same bits, nothing to say: %q", problems)
	}
}

func TestOldDriverMemoryV1(t *testing.T) {
	_, box, src := oldFake(t, 2, "470.239.06", "nvmlDeviceGetMemoryInfo_v2")
	gpus, truth, _ := run(box, src, 2)
	if gpus[1].MemUsed != truth[1].MemUsed || gpus[1].NA[sampler.NAMemUsed] != "" {
		t.Errorf("memory %+v (%q), want %+v from GetMemoryInfo", gpus[1].MemUsed, gpus[1].NA[sampler.NAMemUsed], truth[1].MemUsed)
	}
}

func TestOldDriverNoGPM(t *testing.T) {
	_, box, src := oldFake(t, 2, "470.239.06", "nvmlGpmQueryDeviceSupport", "nvmlGpmSampleAlloc", "nvmlGpmSampleGet", "nvmlGpmMetricsGet", "nvmlGpmMigSampleGet")
	gpus, truth, problems := run(box, src, 3)
	for _, field := range callFields[cGPM] {
		if field == sampler.NANVLinkRx || field == sampler.NANVLinkTx {
			continue // read from the NVLink counters instead
		}
		if r := gpus[0].NA[field]; r != reasonNotInDriver {
			t.Errorf("NA[%s] = %q, want %q", field, r, reasonNotInDriver)
		}
	}
	if gpus[0].NVLinkRx != truth[0].NVLinkRx || gpus[0].NVLinkTx != truth[0].NVLinkTx {
		t.Errorf("NVLink %v / %v, want %v / %v from the NVLink counters", gpus[0].NVLinkRx, gpus[0].NVLinkTx, truth[0].NVLinkRx, truth[0].NVLinkTx)
	}
	all := strings.Join(problems, "\n")
	if len(problems) != 1 || !strings.Contains(all, "470.239.06") || !strings.Contains(all, "sm_active") {
		t.Errorf("want one line naming the driver and what is missing: %q", problems)
	}
}

// TestMissingSymbolNeverCalled: whichever optional function the driver
// lacks, the reader never calls it (a call would end the process).
func TestMissingSymbolNeverCalled(t *testing.T) {
	for _, sym := range fakenvml.OptionalSymbols() {
		t.Run(sym, func(t *testing.T) {
			_, box, src := oldFake(t, 2, "450.248.02", sym)
			gpus, _, _ := run(box, src, tableTicks)
			if len(gpus) != 2 || !gpus[1].Util.OK {
				t.Errorf("GPUs not read without %s: %+v", sym, gpus)
			}
		})
	}
}

func TestProcessListFunctionNotFound(t *testing.T) {
	f, box, src := newFake(t, 2, "", nil, nil)
	f.SetFault(0, "GetComputeRunningProcesses", nvml.ERROR_FUNCTION_NOT_FOUND)
	for k := range 3 {
		box.set(varied(fakenvml.BaseTruth(2, ""), k))
		gpus, _ := src.Sample(tickTime(k))
		if r := gpus[0].NA[sampler.NAProcs]; r != reasonNotInDriver {
			t.Errorf("tick %d: NA[procs] = %q, want %q", k, r, reasonNotInDriver)
		}
	}
	if c := f.Calls(0, "GetComputeRunningProcesses"); c != 1 {
		t.Errorf("called %d times, want 1 (cached)", c)
	}
}

// TestProcessV3SymbolAbsent: drivers from 535.98 on lack the _v3 process
// calls again; go-nvml picks the newest version the library has when it
// loads it, so the reader must not refuse the process list for it.
func TestProcessV3SymbolAbsent(t *testing.T) {
	_, box, src := oldFake(t, 2, "535.98", "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v3")
	gpus, truth, _ := run(box, src, 2)
	if len(gpus[1].Procs) != len(truth[1].Procs) {
		t.Errorf("GPU 1 has %d processes, want %d", len(gpus[1].Procs), len(truth[1].Procs))
	}
}

// TestGuardedXidDelivered: an Xid event names the driver's own device, not
// the guard around it; the reader still finds the GPU it belongs to.
func TestGuardedXidDelivered(t *testing.T) {
	_, box, src := oldFake(t, 4, "550.54.15")
	for k := range 3 {
		truth := varied(fakenvml.BaseTruth(4, ""), k)
		if k >= 1 {
			truth[2].Xids = []sampler.Xid{{Time: tickTime(1), Code: 79}}
		}
		box.set(truth)
		gpus, _ := src.Sample(tickTime(k))
		if want := k == 1; (len(gpus[2].Xids) == 1) != want {
			t.Errorf("tick %d: GPU 2 Xids %+v", k, gpus[2].Xids)
		}
	}
}
