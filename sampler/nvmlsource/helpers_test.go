package nvmlsource

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// truthBox publishes a new truth per step, as the demo engine does.
type truthBox struct{ p atomic.Pointer[[]sampler.GPU] }

func (b *truthBox) set(g []sampler.GPU) { b.p.Store(&g) }
func (b *truthBox) get() []sampler.GPU  { return *b.p.Load() }

var t0 = time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC)

// tickTime is tick k's time: one second apart, as the default interval.
func tickTime(k int) time.Time { return t0.Add(time.Duration(k) * time.Second) }

// varied returns base with fast-tier readings that differ per GPU and per
// tick k, in values the unit conversions carry exactly (whole mW, KiB, MiB).
func varied(base []sampler.GPU, k int) []sampler.GPU {
	out := slices.Clone(base)
	for i := range out {
		g := &out[i]
		v := float64((i*7 + k*13) % 90)
		g.Util, g.MemUtil = sampler.Some(v+5), sampler.Some(math.Floor(v/2))
		g.EncUtil, g.DecUtil = sampler.Some(float64(k%3)), sampler.Some(float64(i%4))
		if g.SMActive.OK { // GPM present (Hopper)
			g.SMActive, g.SMOccupancy = sampler.Some(v*0.75), sampler.Some(v*0.5)
			g.TensorActive, g.DRAMActive = sampler.Some(v*0.25), sampler.Some(v+1.5)
			g.NVLinkRx, g.NVLinkTx = sampler.Some(float64((k+1)*(i+1))*(1<<20)*100), sampler.Some(float64(k+i)*(1<<20))
		}
		g.MemUsed = sampler.Some(float64(uint64(i+1)<<30 + uint64(k)<<20))
		g.Temp = sampler.Some(40 + math.Floor(v/3))
		g.Power = sampler.Some(100 + v*5.5 + 0.125)
		g.SMClock, g.MemClock = sampler.Some(1000+v*10), sampler.Some(3201)
		g.ClockEvents = sampler.ClockEvents{Mask: []uint64{0, sampler.ClockSwPowerCap, sampler.ClockGpuIdle | sampler.ClockHwSlowdown}[k%3], OK: true}
		g.PState = sampler.Some(float64(k % 2))
		g.PCIeRx, g.PCIeTx = sampler.Some(float64(1024*(1000+k*i))), sampler.Some(float64(1024*(5+k)))
		g.PCIeGen = sampler.Some(float64(4 + k%2))
		g.Procs = []sampler.GPUProc{
			{PID: 1000 + i*10, Type: "C", MemUsed: sampler.Some(float64(uint64(i+1) << 29)), SMUtil: sampler.Some(v), MemUtil: sampler.Some(math.Floor(v / 3))},
			{PID: 1000 + i*10 + 1, Type: "G", MemUsed: sampler.Some(64 << 20), SMUtil: sampler.Some(1), MemUtil: sampler.Some(0)},
			{PID: 1000 + i*10 + 2, Type: "C+G", MemUsed: sampler.Some(128 << 20), SMUtil: sampler.Some(float64(k)), MemUtil: sampler.Some(2)},
		}
	}
	return out
}

// newFake builds a fake over a varied truth and an NVML source on it.
func newFake(t testing.TB, n int, model string, topo *sampler.Topology, base []sampler.GPU) (*fakenvml.Fake, *truthBox, *Source) {
	t.Helper()
	if base == nil {
		base = fakenvml.BaseTruth(n, model)
	}
	box := &truthBox{}
	box.set(varied(base, 0))
	f := fakenvml.New(fakenvml.Config{GPUs: n, Model: model, Truth: box.get, Topology: topo})
	src, err := New(f.Interface(), Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { src.Close() })
	return f, box, src
}

// sortedProcs orders processes by PID (NVML lists compute ones first).
func sortedProcs(p []sampler.GPUProc) []sampler.GPUProc {
	p = slices.Clone(p)
	slices.SortFunc(p, func(a, b sampler.GPUProc) int { return a.PID - b.PID })
	return p
}

// diffGPU lists the fields of got that differ from want.
func diffGPU(want, got sampler.GPU) []string {
	want.Procs, got.Procs = sortedProcs(want.Procs), sortedProcs(got.Procs)
	var diffs []string
	wv, gv := reflect.ValueOf(want), reflect.ValueOf(got)
	for i := range wv.NumField() {
		a, b := wv.Field(i).Interface(), gv.Field(i).Interface()
		if !reflect.DeepEqual(a, b) {
			diffs = append(diffs, fmt.Sprintf("%s: want %+v, got %+v", wv.Type().Field(i).Name, a, b))
		}
	}
	return diffs
}
