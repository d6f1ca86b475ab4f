package sim

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// signatureSeeds is how many seeds each scenario's signature is checked on.
const signatureSeeds = 4

// check is one scenario's signature, as docs/scenarios.md states it.
type check func(t *testing.T, frames []frame, topo *sampler.Topology)

// TestSignatures runs each scenario for 180 s at 1 s ticks on several seeds
// and checks the numbers docs/scenarios.md promises.
func TestSignatures(t *testing.T) {
	checks := map[string]check{
		"healthy": checkHealthy, "mixed": checkMixed, "input_starved": checkInputStarved, "io_bound": checkIOBound,
		"launch_bound": checkLaunchBound, "sync_stall": checkSyncStall, "copy_bound": checkCopyBound,
		"memory_bandwidth_bound": checkMemBound, "tensor_cores_idle": checkTensorIdle, "memory_idle_held": checkMemoryHeld, "allocated_idle": checkAllocatedIdle,
		"memory_pressure": checkMemoryPressure, "load_imbalance": checkLoadImbalance, "straggler": checkStraggler,
		"comm_bound": checkCommBound, "gpu_contention": checkContention, "power_capped": checkPowerCapped,
		"thermal_throttle": checkThermal, "pcie_link_degraded": checkPCIeDegraded, "pcie_errors": checkPCIeErrors,
		"xid_error": checkXid, "ecc_errors": checkECC, "serving_underfilled": checkServing, "mig": checkMIG,
	}
	for _, s := range Scenarios() {
		c, ok := checks[s.ID]
		if !ok {
			t.Errorf("scenario %s has no signature check", s.ID)
			continue
		}
		for seed := int64(1); seed <= signatureSeeds; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", s.ID, seed), func(t *testing.T) {
				n, frames := run(t, s.ID, seed, 180*time.Second, time.Second)
				c(t, frames, n.Topology())
				if s.ID != "mixed" && s.ID != "load_imbalance" {
					checkOthersIdle(t, frames)
				}
			})
		}
	}
}

// expect fails when v is outside [lo, hi].
func expect(t *testing.T, what string, v, lo, hi float64) {
	t.Helper()
	if v < lo || v > hi {
		t.Errorf("%s = %.2f, want %.2f..%.2f", what, v, lo, hi)
	}
}

// checkOthersIdle: GPUs with no process must be fully idle.
func checkOthersIdle(t *testing.T, frames []frame) {
	t.Helper()
	for g := 1; g < numGPUs; g++ {
		if len(frames[0].gpus[g].Procs) > 0 {
			continue // a multi-GPU job
		}
		expect(t, "idle GPU util max", slices.Max(series(frames, g, util)), 0, 0)
		expect(t, "idle GPU power mean", mean(series(frames, g, power)), 70, 95)
		last := frames[len(frames)-1].gpus[g]
		if !last.ClockEvents.Has(sampler.ClockGpuIdle) || last.PCIeGen.V != 1 {
			t.Errorf("idle GPU %d: events %v, PCIe gen %.0f (want idle, Gen1)", g, last.ClockEvents, last.PCIeGen.V)
		}
	}
}

func checkTraining(t *testing.T, frames []frame, g int) {
	t.Helper()
	expect(t, "util mean", mean(series(frames, g, util)), 90, 100)
	expect(t, "SM active mean", mean(series(frames, g, sm)), 75, 90)
	expect(t, "tensor active mean", mean(series(frames, g, tensor)), 45, 70)
	expect(t, "DRAM active mean", mean(series(frames, g, dram)), 30, 50)
	expect(t, "power mean (share of limit)", mean(series(frames, g, power))/700, 0.75, 0.92)
	expect(t, "temperature mean", mean(series(frames, g, temp)), 55, 72)
	expect(t, "SM clock p10", percentile(series(frames, g, clock), 10), 1900, 1980)
}

func checkHealthy(t *testing.T, frames []frame, topo *sampler.Topology) {
	for g := range numGPUs {
		checkTraining(t, frames, g)
		// A lone power-cap blip at a noise peak is what real boards do; a
		// pattern of them is not healthy.
		throttled := share(series(frames, g, func(x sampler.GPU) float64 {
			if x.ClockEvents.Throttled() {
				return 1
			}
			return 0
		}), func(v float64) bool { return v == 1 })
		expect(t, "share of throttled ticks", throttled, 0, 0.02)
		p := mainProc(t, frames[0], g)
		if parent := frames[0].host.Procs[p.PPID]; parent == nil || parent.Name != "torchrun" {
			t.Errorf("GPU %d's rank has parent %v, want torchrun", g, parent)
		}
		if len(p.Children) != 8 {
			t.Errorf("GPU %d's rank has %d workers, want 8", g, len(p.Children))
		}
		expect(t, "rank CPU mean", mean(procSeries(t, frames, g, func(_ frame, p *sampler.Proc) float64 { return p.CPU.V })), 60, 90)
	}
	expect(t, "iowait max", slices.Max(hostSeries(frames, func(h *sampler.Host) float64 { return h.IOWait.V })), 0, 2)
	for i := range topo.Links {
		for j, l := range topo.Links[i] {
			if i != j && l != "NV18" {
				t.Fatalf("topology[%d][%d] = %q, want NV18", i, j, l)
			}
		}
	}
}

func hostSeries(frames []frame, f func(*sampler.Host) float64) []float64 {
	out := make([]float64, len(frames))
	for i, fr := range frames {
		out[i] = f(fr.host)
	}
	return out
}

func bursty(t *testing.T, frames []frame, g int) {
	t.Helper()
	u := series(frames, g, util)
	expect(t, "util p5", percentile(u, 5), 0, 9.99)
	expect(t, "util p95", percentile(u, 95), 70, 100)
}

// starvedCPU: the main process saturates a core with no workers, or the
// workers / the host are saturated.
func starvedCPU(t *testing.T, frames []frame, g int) {
	t.Helper()
	ok := share(procSeries(t, frames, g, func(fr frame, p *sampler.Proc) float64 {
		if p.CPU.V >= 90 && len(p.Children) == 0 {
			return 1
		}
		workersSaturated := len(p.Children) > 0
		for _, c := range p.Children {
			workersSaturated = workersSaturated && fr.host.Procs[c].CPU.V >= 90
		}
		if workersSaturated && fr.host.CPU.V >= 90 {
			return 1
		}
		return 0
	}), func(v float64) bool { return v == 1 })
	expect(t, "share of ticks with CPU-bound input", ok, 0.95, 1)
}

func checkInputStarved(t *testing.T, frames []frame, _ *sampler.Topology) {
	bursty(t, frames, 0)
	starvedCPU(t, frames, 0)
	expect(t, "iowait mean", mean(hostSeries(frames, func(h *sampler.Host) float64 { return h.IOWait.V })), 0, 2)
}

func checkIOBound(t *testing.T, frames []frame, _ *sampler.Topology) {
	expect(t, "util mean", mean(series(frames, 0, util)), 15, 35)
	expect(t, "iowait mean", mean(hostSeries(frames, func(h *sampler.Host) float64 { return h.IOWait.V })), 25, 60)
	expect(t, "disk read mean GB/s", mean(hostSeries(frames, func(h *sampler.Host) float64 { return h.DiskRead.V }))/1e9, 1.5, 3)
	expect(t, "main CPU mean", mean(procSeries(t, frames, 0, func(_ frame, p *sampler.Proc) float64 { return p.CPU.V })), 20, 40)
	inD := procSeries(t, frames, 0, func(fr frame, p *sampler.Proc) float64 {
		d := 0.0
		for _, c := range p.Children {
			if fr.host.Procs[c].State == "D" {
				d++
			}
		}
		return d / float64(len(p.Children))
	})
	expect(t, "workers in D (mean share)", mean(inD), 0.5, 1)
	expect(t, "workers", float64(len(mainProc(t, frames[0], 0).Children)), 4, 8)
}

func checkLaunchBound(t *testing.T, frames []frame, _ *sampler.Topology) {
	expect(t, "share util>=80", share(series(frames, 0, util), func(v float64) bool { return v >= 80 }), 0.95, 1)
	expect(t, "SM active max", slices.Max(series(frames, 0, sm)), 10, 35)
	expect(t, "tensor mean", mean(series(frames, 0, tensor)), 0, 3)
	expect(t, "power mean", mean(series(frames, 0, power)), 150, 230)
	expect(t, "main CPU p10", percentile(procSeries(t, frames, 0, func(_ frame, p *sampler.Proc) float64 { return p.CPU.V }), 10), 90, 100)
}

func checkSyncStall(t *testing.T, frames []frame, _ *sampler.Topology) {
	u := series(frames, 0, util)
	expect(t, "util mean", mean(u), 50, 80)
	// A dip (<40%) in every 6 s window: regular, not occasional.
	for i := 0; i+6 <= len(u); i++ {
		if slices.Min(u[i:i+6]) >= 40 {
			t.Fatalf("no dip in seconds %d-%d: %v", i, i+6, u[i:i+6])
		}
	}
	expect(t, "main CPU max", slices.Max(procSeries(t, frames, 0, func(_ frame, p *sampler.Proc) float64 { return p.CPU.V })), 30, 80)
	expect(t, "host CPU max", slices.Max(hostSeries(frames, func(h *sampler.Host) float64 { return h.CPU.V })), 0, 40)
	expect(t, "iowait mean", mean(hostSeries(frames, func(h *sampler.Host) float64 { return h.IOWait.V })), 0, 2)
}

func checkCopyBound(t *testing.T, frames []frame, _ *sampler.Topology) {
	copying := share(series(frames, 0, func(g sampler.GPU) float64 {
		if g.PCIeRx.V >= 0.5e9 && g.Util.V < 50 {
			return 1
		}
		return 0
	}), func(v float64) bool { return v == 1 })
	expect(t, "share copying with util<50", copying, 0.3, 1)
	expect(t, "PCIe RX p95 GB/s", percentile(series(frames, 0, func(g sampler.GPU) float64 { return g.PCIeRx.V }), 95)/1e9, 20, 45)
	expect(t, "mem util mean", mean(series(frames, 0, func(g sampler.GPU) float64 { return g.MemUtil.V })), 0, 30)
}

// checkMIG: GPU 0 has seven 1g.18gb instances, one process each, whose memory
// adds up to the GPU's; device-level utilisation is n/a with the MIG reason.
func checkMIG(t *testing.T, frames []frame, _ *sampler.Topology) {
	t.Helper()
	for i, fr := range frames {
		g := fr.gpus[0]
		if !g.MIG || len(g.MIGDevices) != 7 || g.Util.OK || g.NA["util"] == "" {
			t.Fatalf("tick %d: MIG %v, %d instances, util %+v (%q)", i, g.MIG, len(g.MIGDevices), g.Util, g.NA["util"])
		}
		var mem float64
		for _, d := range g.MIGDevices {
			if d.Profile != "1g.18gb" || len(d.Procs) != 1 || d.MemUsed.V > d.MemTotal.V {
				t.Fatalf("tick %d: instance %+v", i, d)
			}
			mem += d.MemUsed.V
		}
		if mem <= 0 || mem > g.MemUsed.V {
			t.Fatalf("tick %d: instances hold %.0f of the GPU's %.0f bytes", i, mem, g.MemUsed.V)
		}
		// Bug found in use: every instance showed the whole GPU's SM and
		// tensor figures. Seven services see different traffic; the GPU's
		// figure is their mean (equal slices).
		var sm, tensor []float64
		for _, d := range g.MIGDevices {
			sm, tensor = append(sm, d.SMActive.V), append(tensor, d.TensorActive.V)
		}
		if g.SMActive.V > 5 && (slices.Max(sm)-slices.Min(sm) < 5 || slices.Max(tensor)-slices.Min(tensor) < 2) {
			t.Fatalf("tick %d: instances alike: sm %v tensor %v", i, sm, tensor)
		}
		if m := mean(sm); math.Abs(m-g.SMActive.V) > 1 {
			t.Fatalf("tick %d: instances' SM mean %.1f, GPU %.1f", i, m, g.SMActive.V)
		}
	}
}
