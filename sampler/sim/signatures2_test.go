package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

func checkMemBound(t *testing.T, frames []frame, _ *sampler.Topology) {
	expect(t, "share DRAM>=70", share(series(frames, 0, dram), func(v float64) bool { return v >= 70 }), 0.95, 1)
	expect(t, "util mean", mean(series(frames, 0, util)), 95, 100)
	expect(t, "SM mean", mean(series(frames, 0, sm)), 45, 65)
	expect(t, "tensor mean", mean(series(frames, 0, tensor)), 0, 5)
	expect(t, "power mean share", mean(series(frames, 0, power))/700, 0.6, 0.75)
}

func checkTensorIdle(t *testing.T, frames []frame, _ *sampler.Topology) {
	ok := share(series(frames, 0, func(g sampler.GPU) float64 {
		if g.SMActive.V >= 50 && g.TensorActive.V < 5 {
			return 1
		}
		return 0
	}), func(v float64) bool { return v == 1 })
	expect(t, "share SM>=50 & tensor<5", ok, 0.95, 1)
	expect(t, "util mean", mean(series(frames, 0, util)), 95, 100)
}

func checkMemoryHeld(t *testing.T, frames []frame, _ *sampler.Topology) {
	expect(t, "util max", slices.Max(series(frames, 0, util)), 0, 5)
	expect(t, "memory share min", slices.Min(series(frames, 0, memFrac)), 0.4, 0.8)
	p := mainProc(t, frames[0], 0)
	if !strings.Contains(p.Cmdline, "ipykernel") || frames[0].host.Procs[p.PPID].Name != "jupyter-lab" {
		t.Errorf("holder is %q under %v", p.Cmdline, frames[0].host.Procs[p.PPID])
	}
	expect(t, "kernel CPU max", slices.Max(procSeries(t, frames, 0, func(_ frame, p *sampler.Proc) float64 { return p.CPU.V })), 0, 2)
}

func checkMemoryPressure(t *testing.T, frames []frame, _ *sampler.Topology) {
	m := series(frames, 0, memFrac)
	expect(t, "memory share min", slices.Min(m), 0.955, 0.99)
	expect(t, "memory share max", slices.Max(m), 0.97, 0.99)
	expect(t, "memory creep", m[len(m)-1]-m[0], 0.005, 0.04)
	expect(t, "util mean", mean(series(frames, 0, util)), 90, 99)
}

func checkLoadImbalance(t *testing.T, frames []frame, _ *sampler.Topology) {
	expect(t, "GPU 0 util mean", mean(series(frames, 0, util)), 95, 100)
	expect(t, "GPU 0 memory", memFrac(frames[0].gpus[0]), 0.75, 0.85)
	procs := frames[0].gpus[0].Procs
	parents := map[int]bool{}
	for _, p := range procs {
		parents[frames[0].host.Procs[p.PID].PPID] = true
	}
	if len(procs) != 3 || len(parents) != 3 {
		t.Errorf("GPU 0 has %d processes under %d parents, want 3 independent jobs", len(procs), len(parents))
	}
	for g := 1; g < numGPUs; g++ {
		expect(t, "other GPU util max", slices.Max(series(frames, g, util)), 0, 0)
		if len(frames[0].gpus[g].Procs) != 0 {
			t.Errorf("GPU %d has processes", g)
		}
	}
}

func checkStraggler(t *testing.T, frames []frame, _ *sampler.Topology) {
	var others []float64
	for g := range numGPUs {
		if g == 5 {
			continue
		}
		others = append(others, mean(series(frames, g, sm)))
		expect(t, "waiting rank util mean", mean(series(frames, g, util)), 90, 100)
		expect(t, "waiting rank SM mean", mean(series(frames, g, sm)), 15, 30)
		expect(t, "waiting rank power below the straggler's", mean(series(frames, g, power)), 0, mean(series(frames, 5, power))-100)
	}
	slow := mean(series(frames, 5, sm))
	expect(t, "GPU 5 SM mean", slow, 85, 95)
	expect(t, "GPU 5 SM / median of others", slow/percentile(others, 50), 1.3, 10)
}

func checkCommBound(t *testing.T, frames []frame, topo *sampler.Topology) {
	for i := range topo.Links {
		for j, l := range topo.Links[i] {
			if strings.HasPrefix(l, "NV") || (i != j && !slices.Contains([]string{"PIX", "PHB", "SYS"}, l)) {
				t.Fatalf("topology[%d][%d] = %q, want PCIe only", i, j, l)
			}
		}
	}
	u0 := series(frames, 0, util)
	for g := range numGPUs {
		u := series(frames, g, util)
		expect(t, "util mean", mean(u), 30, 60)
		if g > 0 {
			expect(t, "util correlation with GPU 0", correlation(u0, u), 0.7, 1)
		}
		dipRx := series(frames, g, func(x sampler.GPU) float64 {
			if x.Util.V < 20 {
				return x.PCIeRx.V
			}
			return -1
		})
		dipRx = slices.DeleteFunc(dipRx, func(v float64) bool { return v < 0 })
		expect(t, "PCIe RX in dips GB/s", mean(dipRx)/1e9, 10, 25)
	}
	ppid := map[int]bool{}
	for g := range numGPUs {
		ppid[mainProc(t, frames[0], g).PPID] = true
	}
	if len(ppid) != 1 {
		t.Errorf("ranks under %d parents, want one torchrun", len(ppid))
	}
}

func checkContention(t *testing.T, frames []frame, _ *sampler.Topology) {
	expect(t, "util mean", mean(series(frames, 0, util)), 90, 100)
	users := map[string]bool{}
	for i, p := range frames[0].gpus[0].Procs {
		users[frames[0].host.Procs[p.PID].User] = true
		expect(t, "process SM util mean", mean(series(frames, 0, func(g sampler.GPU) float64 { return g.Procs[i].SMUtil.V })), 25, 40)
	}
	if len(users) != 3 {
		t.Errorf("%d users on GPU 0, want 3", len(users))
	}
}

func checkPowerCapped(t *testing.T, frames []frame, _ *sampler.Topology) {
	expect(t, "power limit", frames[0].gpus[0].PowerLimit.V, 450, 450)
	expect(t, "power p5", percentile(series(frames, 0, power), 5), 435, 450)
	capped := share(series(frames, 0, func(g sampler.GPU) float64 {
		if g.ClockEvents.Has(sampler.ClockSwPowerCap) {
			return 1
		}
		return 0
	}), func(v float64) bool { return v == 1 })
	expect(t, "share sw_power_cap", capped, 0.6, 1)
	expect(t, "SM clock median", percentile(series(frames, 0, clock), 50), 1300, 1600)
}

func checkThermal(t *testing.T, frames []frame, _ *sampler.Topology) {
	temps := series(frames, 0, temp)
	expect(t, "share temp 88-93", share(temps, func(v float64) bool { return v >= 88 && v <= 93 }), 0.95, 1)
	expect(t, "temperature rise", mean(temps[150:])-mean(temps[:30]), 0, 5)
	thermal := share(series(frames, 0, func(g sampler.GPU) float64 {
		if g.ClockEvents.Has(sampler.ClockSwThermal | sampler.ClockHwThermal) {
			return 1
		}
		return 0
	}), func(v float64) bool { return v == 1 })
	expect(t, "share thermal events", thermal, 0.5, 1)
	expect(t, "SM clock mean", mean(series(frames, 0, clock)), 1100, 1500)
	expect(t, "util mean", mean(series(frames, 0, util)), 95, 100)
}

func checkPCIeDegraded(t *testing.T, frames []frame, _ *sampler.Topology) {
	degraded := share(series(frames, 0, func(g sampler.GPU) float64 {
		if g.Util.V >= 50 && (g.PCIeGen.V < g.PCIeGenMax.V || g.PCIeWidth.V < g.PCIeWidthMax.V) {
			return 1
		}
		return 0
	}), func(v float64) bool { return v == 1 })
	expect(t, "share degraded under load", degraded, 0.95, 1)
}

func checkPCIeErrors(t *testing.T, frames []frame, _ *sampler.Topology) {
	r := series(frames, 0, func(g sampler.GPU) float64 { return g.PCIeReplays.V })
	for i := 60; i < len(r); i += 60 {
		expect(t, "replays per minute", r[i]-r[i-60], 40, 250)
	}
	for g := 1; g < numGPUs; g++ {
		expect(t, "other GPU replays", frames[len(frames)-1].gpus[g].PCIeReplays.V, 0, 0)
	}
}

func checkXid(t *testing.T, frames []frame, _ *sampler.Topology) {
	var codes []uint64
	for _, fr := range frames {
		for g, x := range fr.gpus {
			if g != 0 && len(x.Xids) > 0 {
				t.Errorf("GPU %d reported Xids %v", g, x.Xids)
			}
		}
		for _, x := range fr.gpus[0].Xids {
			codes = append(codes, x.Code)
		}
	}
	expect(t, "Xid count", float64(len(codes)), 2, 5)
}

func checkECC(t *testing.T, frames []frame, _ *sampler.Topology) {
	g := frames[len(frames)-1].gpus[0]
	if g.ECCUncorrected.V <= 0 || !(g.RemapPending || g.RemapFailed) {
		t.Errorf("ECC uncorrected %.0f, pending %v, failed %v", g.ECCUncorrected.V, g.RemapPending, g.RemapFailed)
	}
}

func checkServing(t *testing.T, frames []frame, _ *sampler.Topology) {
	expect(t, "util mean", mean(series(frames, 0, util)), 10, 35)
	expect(t, "memory share", memFrac(frames[0].gpus[0]), 0.85, 0.92)
	p := mainProc(t, frames[0], 0)
	if p.Name != "vllm" && p.Name != "tritonserver" {
		t.Errorf("server is %q", p.Name)
	}
	expect(t, "server CPU mean", mean(procSeries(t, frames, 0, func(_ frame, p *sampler.Proc) float64 { return p.CPU.V })), 30, 60)
}

// checkMixed: each GPU shows its own state.
func checkMixed(t *testing.T, frames []frame, _ *sampler.Topology) {
	checkTraining(t, frames, 0)
	bursty(t, frames, 1)
	starvedCPU(t, frames, 1)
	expect(t, "GPU 2 util max", slices.Max(series(frames, 2, util)), 0, 5)
	expect(t, "GPU 2 memory", memFrac(frames[0].gpus[2]), 0.4, 0.8)
	expect(t, "GPU 3 util mean", mean(series(frames, 3, util)), 10, 35)
	expect(t, "GPU 4 temperature p10", percentile(series(frames, 4, temp), 10), 88, 93)
	expect(t, "GPU 5 SM max", slices.Max(series(frames, 5, sm)), 10, 35)
	expect(t, "GPU 6 util max", slices.Max(series(frames, 6, util)), 0, 0)
	if len(frames[0].gpus[6].Procs) != 0 {
		t.Error("GPU 6 has processes")
	}
	expect(t, "GPU 7 DRAM mean", mean(series(frames, 7, dram)), 80, 95)
}
