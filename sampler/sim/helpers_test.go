package sim

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/stat"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// frame is one tick of a run.
type frame struct {
	gpus []sampler.GPU
	host *sampler.Host
}

// run ticks scenario for dur at tick and returns every tick's truth.
func run(t testing.TB, scenario string, seed int64, dur, tick time.Duration) (*Node, []frame) {
	t.Helper()
	n, err := New(scenario, seed, t0)
	if err != nil {
		t.Fatalf("New(%q): %v", scenario, err)
	}
	var out []frame
	for at := tick; at <= dur; at += tick {
		n.AdvanceTo(t0.Add(at))
		out = append(out, frame{gpus: n.GPUs(), host: n.Host()})
	}
	return n, out
}

func series(frames []frame, gpu int, f func(sampler.GPU) float64) []float64 {
	out := make([]float64, len(frames))
	for i, fr := range frames {
		out[i] = f(fr.gpus[gpu])
	}
	return out
}

func util(g sampler.GPU) float64   { return g.Util.V }
func sm(g sampler.GPU) float64     { return g.SMActive.V }
func tensor(g sampler.GPU) float64 { return g.TensorActive.V }
func dram(g sampler.GPU) float64   { return g.DRAMActive.V }
func power(g sampler.GPU) float64  { return g.Power.V }
func clock(g sampler.GPU) float64  { return g.SMClock.V }
func temp(g sampler.GPU) float64   { return g.Temp.V }
func memFrac(g sampler.GPU) float64 {
	return g.MemUsed.V / g.MemTotal.V
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// percentile is the nearest-rank percentile p (0-100) of xs.
func percentile(xs []float64, p float64) float64 {
	return stat.Percentile(slices.Clone(xs), p) // gpuscope's one definition
}

// share is the fraction of xs for which ok holds.
func share(xs []float64, ok func(float64) bool) float64 {
	k := 0
	for _, x := range xs {
		if ok(x) {
			k++
		}
	}
	return float64(k) / float64(len(xs))
}

func correlation(a, b []float64) float64 {
	ma, mb := mean(a), mean(b)
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}

// mainProc is the host record of GPU gpu's first process at frame fr.
func mainProc(t testing.TB, fr frame, gpu int) *sampler.Proc {
	t.Helper()
	if len(fr.gpus[gpu].Procs) == 0 {
		t.Fatalf("GPU %d has no process", gpu)
	}
	p, ok := fr.host.Procs[fr.gpus[gpu].Procs[0].PID]
	if !ok {
		t.Fatalf("GPU %d's process %d missing from Host.Procs", gpu, fr.gpus[gpu].Procs[0].PID)
	}
	return p
}

func procSeries(t testing.TB, frames []frame, gpu int, f func(fr frame, p *sampler.Proc) float64) []float64 {
	out := make([]float64, len(frames))
	for i, fr := range frames {
		out[i] = f(fr, mainProc(t, fr, gpu))
	}
	return out
}
