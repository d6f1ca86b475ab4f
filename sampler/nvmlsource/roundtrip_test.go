package nvmlsource

import (
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// TestRoundTrip: a truth goes through the fake NVML and comes back out of
// Sample equal, field by field, on every tick from the second (GPM warm).
func TestRoundTrip(t *testing.T) {
	for _, n := range []int{1, 8, 16} {
		for _, model := range []string{fakenvml.ModelH200, fakenvml.ModelA100} {
			t.Run(model+"/"+string(rune('0'+n/10))+string(rune('0'+n%10)), func(t *testing.T) {
				_, box, src := newFake(t, n, model, nil, nil)
				base := fakenvml.BaseTruth(n, model)
				for k := range 4 {
					truth := varied(base, k)
					box.set(truth)
					gpus, problems := src.Sample(tickTime(k))
					if len(problems) > 0 {
						t.Fatalf("tick %d: problems %v", k, problems)
					}
					if len(gpus) != n {
						t.Fatalf("tick %d: %d GPUs, want %d", k, len(gpus), n)
					}
					for i := range gpus {
						want := truth[i]
						if k == 0 && model == fakenvml.ModelH200 {
							checkWarmingUp(t, gpus[i])
							continue
						}
						if k == 0 { // an A100's NVLink counters need two readings
							want = warmingNVLink(want)
						}
						if d := diffGPU(want, gpus[i]); len(d) > 0 {
							t.Fatalf("tick %d GPU %d differs:\n%s", k, i, strings.Join(d, "\n"))
						}
					}
				}
			})
		}
	}
}

// warmingNVLink is g as its first tick reads it without GPM: the NVLink
// rates wait for a second reading of the counters.
func warmingNVLink(g sampler.GPU) sampler.GPU {
	g.NA = maps.Clone(g.NA)
	g.NVLinkRx, g.NVLinkTx = sampler.NA, sampler.NA
	g.NA[sampler.NANVLinkRx], g.NA[sampler.NANVLinkTx] = reasonWarmingUp, reasonWarmingUp
	return g
}

func checkWarmingUp(t *testing.T, g sampler.GPU) {
	t.Helper()
	if g.SMActive.OK || g.NVLinkTx.OK {
		t.Errorf("GPU %d: GPM values on the first tick: %+v", g.Index, g.SMActive)
	}
	for _, f := range []string{"sm_active", "sm_occupancy", "tensor_active", "dram_active", "nvlink_rx", "nvlink_tx"} {
		if g.NA[f] != "warming up" {
			t.Errorf("GPU %d: NA[%s] = %q, want warming up", g.Index, f, g.NA[f])
		}
	}
	if !g.Util.OK || !g.Power.OK {
		t.Errorf("GPU %d: fast fields missing on the first tick", g.Index)
	}
}

func TestNodeVersions(t *testing.T) {
	_, _, src := newFake(t, 2, "", nil, nil)
	n := src.Node()
	if n.Driver != "550.54.15" || n.CUDA != "12.4" || n.NVML != "12.550.54.15" {
		t.Errorf("Node = %+v", n)
	}
	if got := cudaVersion(12080); got != "12.8" {
		t.Errorf("cudaVersion(12080) = %q", got)
	}
}

func TestTopologyH200IsNV18(t *testing.T) {
	_, _, src := newFake(t, 8, fakenvml.ModelH200, nil, nil)
	if src.Topology() != nil {
		t.Fatal("topology before the first tick")
	}
	src.Sample(tickTime(0))
	topo := src.Topology()
	if topo == nil || len(topo.Links) != 8 {
		t.Fatalf("topology = %+v", topo)
	}
	for i, row := range topo.Links {
		for j, l := range row {
			want := "NV18"
			if i == j {
				want = "X"
			}
			if l != want {
				t.Errorf("Links[%d][%d] = %q, want %q", i, j, l, want)
			}
		}
	}
}

func TestTopologyPCIeOnly(t *testing.T) {
	want := [][]string{
		{"X", "PIX", "PXB", "PHB", "SYS", "SYS"},
		{"PIX", "X", "PXB", "PHB", "SYS", "SYS"},
		{"PXB", "PXB", "X", "PHB", "SYS", "SYS"},
		{"PHB", "PHB", "PHB", "X", "SYS", "SYS"},
		{"SYS", "SYS", "SYS", "SYS", "X", "NODE"},
		{"SYS", "SYS", "SYS", "SYS", "NODE", "X"},
	}
	base := fakenvml.BaseTruth(6, fakenvml.ModelA100)
	for i := range base {
		base[i].NVLinks = nil
		base[i].NA["nvlinks"] = "not supported"
		// No link to read counters from, and no GPM on an A100.
		base[i].NVLinkRx, base[i].NVLinkTx = sampler.NA, sampler.NA
		base[i].NA[sampler.NANVLinkRx], base[i].NA[sampler.NANVLinkTx] = sampler.ReasonNoGPM, sampler.ReasonNoGPM
	}
	f, box, src := newFake(t, 6, fakenvml.ModelA100, &sampler.Topology{Links: want}, base)
	gpus, _ := src.Sample(tickTime(0))
	if !reflect.DeepEqual(src.Topology().Links, want) {
		t.Errorf("topology:\n got %v\nwant %v", src.Topology().Links, want)
	}
	asked := 0
	for i := range 6 {
		asked += f.Calls(i, "GetTopologyCommonAncestor")
	}
	src.Sample(tickTime(10)) // the next slow tier reuses the PCIe labels
	for i := range 6 {
		asked -= f.Calls(i, "GetTopologyCommonAncestor")
	}
	if asked != 0 || !reflect.DeepEqual(src.Topology().Links, want) {
		t.Errorf("PCIe labels asked again (%d more calls) or changed", -asked)
	}
	if d := diffGPU(box.get()[2], gpus[2]); len(d) > 0 {
		t.Errorf("PCIe-only GPU differs:\n%s", strings.Join(d, "\n"))
	}
}

// TestTopologyDirectNVLink: two GPUs wired to each other (no switch) count
// the links whose remote bus is the peer.
func TestTopologyDirectNVLink(t *testing.T) {
	base := fakenvml.BaseTruth(3, fakenvml.ModelA100)
	base[0].NVLinks = []sampler.NVLink{{Link: 0, Active: true, RemoteBus: base[1].BusID}, {Link: 1, Active: true, RemoteBus: base[1].BusID}, {Link: 2}}
	base[1].NVLinks = []sampler.NVLink{{Link: 0, Active: true, RemoteBus: base[0].BusID}, {Link: 1, Active: true, RemoteBus: base[0].BusID}}
	base[2].NVLinks = nil
	_, _, src := newFake(t, 3, fakenvml.ModelA100, nil, base)
	src.Sample(tickTime(0))
	got := src.Topology().Links
	if got[0][1] != "NV2" || got[1][0] != "NV2" || got[0][2] == "NV2" || got[0][2] == "" {
		t.Errorf("topology = %v", got)
	}
}

// TestSlowTierCarriedOver: slow fields change in the truth but show only on
// the next slow refresh; between refreshes the last values are carried.
func TestSlowTierCarriedOver(t *testing.T) {
	f, box, src := newFake(t, 2, "", nil, nil)
	base := fakenvml.BaseTruth(2, "")
	for k := 0; k <= 10; k++ {
		truth := varied(base, k)
		if k >= 3 {
			truth[1].ECCCorrected = sampler.Some(7)
		}
		box.set(truth)
		gpus, _ := src.Sample(tickTime(k))
		want := 0.0
		if k == 10 { // DefaultSlowEvery after tick 0
			want = 7
		}
		if gpus[1].ECCCorrected != sampler.Some(want) {
			t.Errorf("tick %d: ECCCorrected = %+v, want %v", k, gpus[1].ECCCorrected, want)
		}
		if gpus[1].UUID != fakenvml.UUID(1) || gpus[1].PowerLimit != sampler.Some(700) {
			t.Errorf("tick %d: slow identity not carried: %q", k, gpus[1].UUID)
		}
	}
	if c := f.Calls(1, "GetTotalEccErrors"); c != 4 { // 2 kinds × 2 slow ticks
		t.Errorf("GetTotalEccErrors calls = %d, want 4", c)
	}
}

func TestCPUList(t *testing.T) {
	words := make([]uint, 4)
	for c := 0; c <= 55; c++ {
		words[c/64] |= 1 << (c % 64)
	}
	for c := 112; c <= 167; c++ {
		words[c/64] |= 1 << (c % 64)
	}
	words[3] |= 1 << 63 // CPU 255 alone
	if got := cpuList(words); got != "0-55,112-167,255" {
		t.Errorf("cpuList = %q", got)
	}
	if got := cpuList(nil); got != "" {
		t.Errorf("cpuList(nil) = %q", got)
	}
}

// TestGPMNeedsGap: a tick less than 100 ms after the last GPM sample takes
// no new sample and repeats the last interval's values.
func TestGPMNeedsGap(t *testing.T) {
	f, box, src := newFake(t, 1, "", nil, nil)
	base := fakenvml.BaseTruth(1, "")
	src.Sample(tickTime(0))
	box.set(varied(base, 1))
	first, _ := src.Sample(tickTime(1))
	box.set(varied(base, 2))
	soon, _ := src.Sample(tickTime(1).Add(50 * time.Millisecond))
	if !first[0].SMActive.OK || soon[0].SMActive != first[0].SMActive || soon[0].NVLinkRx != first[0].NVLinkRx {
		t.Errorf("GPM: first %+v, 50 ms later %+v", first[0].SMActive, soon[0].SMActive)
	}
	if c := f.Calls(0, "GpmSampleGet"); c != 2 {
		t.Errorf("GpmSampleGet called %d times, want 2", c)
	}
	later, _ := src.Sample(tickTime(2))
	if want := varied(base, 2)[0].SMActive; later[0].SMActive != want {
		t.Errorf("GPM after the gap = %+v, want %+v", later[0].SMActive, want)
	}
}

// TestThroughSampler: the source drives sampler.Tick as in the product.
func TestThroughSampler(t *testing.T) {
	_, _, src := newFake(t, 8, "", nil, nil)
	s := sampler.Sampler{GPU: src, Source: "demo:test"}
	snap := s.Tick(tickTime(0))
	if len(snap.GPUs) != 8 || snap.Topology == nil || snap.Node.CUDA != "12.4" || len(snap.Problems) > 0 {
		t.Errorf("snapshot: %d GPUs, topology %v, node %+v, problems %v", len(snap.GPUs), snap.Topology != nil, snap.Node, snap.Problems)
	}
}
