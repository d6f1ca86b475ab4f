package nvmlsource

import (
	"fmt"
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// faultCodes are the NVML returns injected into every method: the ones a
// driver gives on a real node (nvml.h's nvmlReturn_t; what real drivers
// answer and when: docs/driver-compatibility.md).
var faultCodes = []nvml.Return{
	nvml.ERROR_NOT_SUPPORTED, nvml.ERROR_NO_PERMISSION, nvml.ERROR_GPU_IS_LOST, nvml.ERROR_UNKNOWN,
	nvml.ERROR_TIMEOUT, nvml.ERROR_INSUFFICIENT_POWER, nvml.ERROR_DRIVER_NOT_LOADED, nvml.ERROR_MEMORY,
}

// libraryMethods are called on the library, not a device: their faults are
// injected on fakenvml.LibraryGPU.
var libraryMethods = map[string]bool{
	"Init": true, "Shutdown": true, "DeviceGetCount": true, "DeviceGetHandleByIndex": true, "EventSetCreate": true,
	"SystemGetCudaDriverVersion": true, "SystemGetDriverVersion": true, "SystemGetNVMLVersion": true, "Wait": true,
	"GetTopologyCommonAncestor": false,
}

const tableTicks = 12 // past the slow tier's 10 s, so slow-tier calls are made mid-run too

// TestFaultTable puts the audit's table in the suite: every NVML method the
// reader calls × 8 error codes, injected on GPU 1 at start (before New) and
// mid-run (tick 3). Nothing panics; GPUs 0 and 2 read exactly as without
// the fault; a failing call is said at most once per cause, not every tick.
func TestFaultTable(t *testing.T) {
	ref := referenceRun(t)
	for _, method := range fakenvml.Methods() {
		for _, code := range faultCodes {
			for _, at := range []string{"start", "mid-run"} {
				name := fmt.Sprintf("%s/%s/%s", method, nvml.ErrorString(code), at)
				t.Run(name, func(t *testing.T) { runFaultCase(t, ref, method, code, at == "start") })
			}
		}
	}
}

// referenceRun reads three GPUs without faults, tick by tick.
func referenceRun(t *testing.T) [][]sampler.GPU {
	_, box, src := newFake(t, 3, "", nil, nil)
	base := fakenvml.BaseTruth(3, "")
	var out [][]sampler.GPU
	for k := range tableTicks {
		box.set(varied(base, k))
		gpus, _ := src.Sample(tickTime(k))
		out = append(out, gpus)
	}
	return out
}

func runFaultCase(t *testing.T, ref [][]sampler.GPU, method string, code nvml.Return, atStart bool) {
	gpu := 1
	if libraryMethods[method] {
		gpu = fakenvml.LibraryGPU
	}
	base := fakenvml.BaseTruth(3, "")
	box := &truthBox{}
	box.set(varied(base, 0))
	f := fakenvml.New(fakenvml.Config{GPUs: 3, Truth: box.get})
	if atStart {
		f.SetFault(gpu, method, code)
	}
	src, err := New(f.Interface(), Options{})
	if err != nil {
		if !atStart || gpu != fakenvml.LibraryGPU {
			t.Fatalf("New failed for a per-GPU fault: %v", err)
		}
		return // Init / DeviceGetCount failing at start: an explanation, checked in TestNewFailsWithReturn
	}
	defer src.Close()
	count := map[string]int{}
	affected := false // the fault changed what GPU 1 shows
	for k := range tableTicks {
		if !atStart && k == 3 {
			f.SetFault(gpu, method, code)
		}
		box.set(varied(base, k))
		gpus, problems := src.Sample(tickTime(k))
		for _, p := range problems {
			count[p]++
		}
		if len(gpus) != 3 {
			t.Fatalf("tick %d: %d GPUs, want 3", k, len(gpus))
		}
		if gpu == fakenvml.LibraryGPU {
			continue
		}
		for _, reason := range gpus[1].NA {
			affected = affected || reason == code.Error()
		}
		affected = affected || gpus[1].Lost
		for _, i := range []int{0, 2} {
			if d := diffGPU(ref[k][i], gpus[i]); len(d) > 0 {
				t.Errorf("tick %d: GPU %d changed by a fault on GPU 1: %s", k, i, strings.Join(d, "; "))
			}
		}
	}
	for p, n := range count {
		if n > 1 {
			t.Errorf("problem said %d times, want once per cause: %q", n, p)
		}
	}
	// n/a is data for NOT_SUPPORTED and NO_PERMISSION; any other failure
	// that changed what GPU 1 shows is also said in a line naming it.
	quiet := code == nvml.ERROR_NOT_SUPPORTED || code == nvml.ERROR_NO_PERMISSION
	if affected && !quiet {
		said := false
		for p := range count {
			said = said || strings.Contains(p, "GPU 1")
		}
		if !said {
			t.Errorf("GPU 1 shows the fault but no problem line says so: %v", count)
		}
	}
}

// TestLostGPUComesBack: a GPU lost mid-run and reset is read again on the
// next slow tier, not ignored until gpuscope restarts; each change is said
// once.
func TestLostGPUComesBack(t *testing.T) {
	base := fakenvml.BaseTruth(4, "")
	f, box, src := newFake(t, 4, "", nil, base)
	var problems []string
	for k := range 14 {
		switch k {
		case 2:
			f.SetFault(3, "*", nvml.ERROR_GPU_IS_LOST)
		case 5: // nvidia-smi -r
			f.ClearFault(3, "*")
		}
		truth := varied(base, k)
		box.set(truth)
		gpus, p := src.Sample(tickTime(k))
		problems = append(problems, p...)
		switch {
		case k >= 2 && k < 10:
			if !gpus[3].Lost {
				t.Fatalf("tick %d: GPU 3 not lost", k)
			}
		case k >= 10: // the slow tier after the reset (every 10 s)
			if gpus[3].Lost || gpus[3].Util != truth[3].Util || gpus[3].UUID != fakenvml.UUID(3) {
				t.Fatalf("tick %d: GPU 3 not read again: lost %v util %+v", k, gpus[3].Lost, gpus[3].Util)
			}
		}
	}
	if len(problems) != 2 || !strings.Contains(problems[0], "fell off the bus") || !strings.Contains(problems[1], "GPU 3") || !strings.Contains(problems[1], "answers again") {
		t.Fatalf("problems %q: want lost, then back", problems)
	}
}
