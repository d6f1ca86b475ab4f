package nvmlsource

import (
	"errors"
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

func TestFanNotSupportedIsCached(t *testing.T) {
	base := fakenvml.BaseTruth(3, "")
	for i := range base {
		base[i].Fan = sampler.Some(40)
		delete(base[i].NA, "fan")
	}
	f, box, src := newFake(t, 3, "", nil, base)
	f.SetFault(2, "GetFanSpeed", nvml.ERROR_NOT_SUPPORTED)
	for k := range 3 {
		box.set(varied(base, k))
		gpus, problems := src.Sample(tickTime(k))
		if len(problems) > 0 {
			t.Fatalf("problems: %v", problems)
		}
		if gpus[2].Fan.OK || gpus[2].NA["fan"] != "not supported" {
			t.Errorf("tick %d: GPU 2 fan = %+v, reason %q", k, gpus[2].Fan, gpus[2].NA["fan"])
		}
		if gpus[1].Fan != sampler.Some(40) {
			t.Errorf("tick %d: GPU 1 fan = %+v", k, gpus[1].Fan)
		}
	}
	if c := f.Calls(2, "GetFanSpeed"); c != 1 {
		t.Errorf("GetFanSpeed on GPU 2 called %d times, want 1", c)
	}
	if c := f.Calls(1, "GetFanSpeed"); c != 3 {
		t.Errorf("GetFanSpeed on GPU 1 called %d times, want 3", c)
	}
}

func TestComputeProcsNoPermission(t *testing.T) {
	base := fakenvml.BaseTruth(2, "")
	f, box, src := newFake(t, 2, "", nil, base)
	f.SetFault(0, "GetComputeRunningProcesses", nvml.ERROR_NO_PERMISSION)
	for k := range 2 {
		truth := varied(base, k)
		truth[0].Procs = truth[0].Procs[:1] // compute only
		box.set(truth)
		gpus, problems := src.Sample(tickTime(k))
		if len(problems) > 0 {
			t.Fatalf("problems: %v", problems)
		}
		if len(gpus[0].Procs) != 0 || gpus[0].NA["procs"] != "no permission" {
			t.Errorf("tick %d: GPU 0 procs %+v, reason %q", k, gpus[0].Procs, gpus[0].NA["procs"])
		}
		if len(gpus[1].Procs) != 3 {
			t.Errorf("tick %d: GPU 1 has %d procs, want 3", k, len(gpus[1].Procs))
		}
	}
	if c := f.Calls(0, "GetComputeRunningProcesses"); c != 2 {
		t.Errorf("no-permission call made %d times, want 2 (not cached)", c)
	}
}

func TestGPULostMidRun(t *testing.T) {
	base := fakenvml.BaseTruth(8, "")
	f, box, src := newFake(t, 8, "", nil, base)
	var prev []sampler.GPU
	var lines []string
	for k := range 6 {
		if k == 2 {
			f.SetFault(3, "*", nvml.ERROR_GPU_IS_LOST)
		}
		box.set(varied(base, k))
		gpus, problems := src.Sample(tickTime(k))
		lines = append(lines, problems...)
		if k >= 2 {
			if !gpus[3].Lost || gpus[3].UUID != fakenvml.UUID(3) || gpus[3].Util.OK {
				t.Errorf("tick %d: GPU 3 = lost %v uuid %q util %+v", k, gpus[3].Lost, gpus[3].UUID, gpus[3].Util)
			}
		}
		if prev != nil {
			for _, i := range []int{0, 2, 4, 7} {
				if gpus[i].Lost || gpus[i].Util == prev[i].Util {
					t.Errorf("tick %d: GPU %d stopped updating (util %+v)", k, i, gpus[i].Util)
				}
			}
		}
		prev = gpus
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "GPU 3") {
		t.Errorf("problems = %q, want one line about GPU 3", lines)
	}
	if c := f.Calls(3, "GetUtilizationRates"); c != 3 { // ticks 0, 1 and the one that found it lost
		t.Errorf("GPU 3 polled %d times, want 3", c)
	}
}

func TestA100HasNoGPM(t *testing.T) {
	f, box, src := newFake(t, 2, fakenvml.ModelA100, nil, nil)
	base := fakenvml.BaseTruth(2, fakenvml.ModelA100)
	for k := range 3 {
		box.set(varied(base, k))
		gpus, _ := src.Sample(tickTime(k))
		for _, field := range callFields[cGPM] {
			if field == sampler.NANVLinkRx || field == sampler.NANVLinkTx {
				continue // from the NVLink counters (TestNVLinkFromCountersWithoutGPM)
			}
			if gpus[1].NA[field] != sampler.ReasonNoGPM { // said by the reader, from the architecture
				t.Errorf("tick %d: NA[%s] = %q", k, field, gpus[1].NA[field])
			}
		}
		if gpus[1].SMActive.OK || gpus[1].TensorActive.OK {
			t.Errorf("tick %d: GPM values on an A100", k)
		}
	}
	if c := f.Calls(1, "GpmQueryDeviceSupport"); c != 1 {
		t.Errorf("GpmQueryDeviceSupport called %d times, want 1", c)
	}
}

func TestXidDeliveredOnce(t *testing.T) {
	base := fakenvml.BaseTruth(8, "")
	_, box, src := newFake(t, 8, "", nil, base)
	xidAt := tickTime(1).Add(-300 * 1e6)
	for k := range 5 {
		truth := varied(base, k)
		if k >= 1 {
			truth[5].Xids = []sampler.Xid{{Time: xidAt, Code: 79}}
		}
		if k >= 3 {
			truth[5].Xids = append(truth[5].Xids, sampler.Xid{Time: tickTime(3), Code: 48})
		}
		box.set(truth)
		gpus, _ := src.Sample(tickTime(k))
		var want []sampler.Xid
		switch k {
		case 1:
			want = []sampler.Xid{{Time: tickTime(1), Code: 79}}
		case 3:
			want = []sampler.Xid{{Time: tickTime(3), Code: 48}}
		}
		if len(gpus[5].Xids) != len(want) || (len(want) > 0 && gpus[5].Xids[0] != want[0]) {
			t.Errorf("tick %d: GPU 5 Xids = %+v, want %+v", k, gpus[5].Xids, want)
		}
		for i, g := range gpus {
			if i != 5 && len(g.Xids) > 0 {
				t.Errorf("tick %d: GPU %d got Xids %+v", k, i, g.Xids)
			}
		}
	}
}

func TestProcessUtilKeepsLastSeenPerGPU(t *testing.T) {
	f, box, src := newFake(t, 2, "", nil, nil)
	base := fakenvml.BaseTruth(2, "")
	var seen uint64
	for k := range 3 {
		box.set(varied(base, k))
		src.Sample(tickTime(k))
		got := f.LastSeenArg(1)
		if (k == 0) != (got == 0) || (k > 0 && got <= seen) {
			t.Errorf("tick %d: lastSeen %d after %d", k, got, seen)
		}
		seen = got
	}
}

// TestShortTruth: a truth with fewer GPUs than devices must not panic.
func TestShortTruth(t *testing.T) {
	box := &truthBox{}
	box.set(fakenvml.BaseTruth(2, "")[:1])
	f := fakenvml.New(fakenvml.Config{GPUs: 3, Truth: box.get})
	src, err := New(f.Interface(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for k := range 2 {
		gpus, _ := src.Sample(tickTime(k))
		if len(gpus) != 3 || !gpus[0].Util.OK || gpus[2].Util.OK {
			t.Fatalf("tick %d: %+v", k, gpus)
		}
	}
}

func TestNewFailsWithReturn(t *testing.T) {
	f := fakenvml.New(fakenvml.Config{GPUs: 1})
	f.SetFault(fakenvml.LibraryGPU, "Init", nvml.ERROR_LIBRARY_NOT_FOUND)
	_, err := New(f.Interface(), Options{})
	var r nvml.Return
	if !errors.As(err, &r) || r != nvml.ERROR_LIBRARY_NOT_FOUND {
		t.Fatalf("err = %v, want one wrapping ERROR_LIBRARY_NOT_FOUND", err)
	}
}

func BenchmarkSample8GPUs(b *testing.B) {
	_, box, src := newFake(b, 8, "", nil, nil)
	box.set(varied(fakenvml.BaseTruth(8, ""), 1))
	src.Sample(tickTime(0))
	b.ReportAllocs()
	b.ResetTimer()
	for k := 1; b.Loop(); k++ {
		src.Sample(tickTime(k))
	}
}
