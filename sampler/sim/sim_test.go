package sim

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestScenarioOrder(t *testing.T) {
	want := []string{"healthy", "mixed", "input_starved", "io_bound", "launch_bound", "sync_stall", "copy_bound",
		"memory_bandwidth_bound", "tensor_cores_idle", "memory_idle_held", "allocated_idle", "memory_pressure", "load_imbalance",
		"straggler", "comm_bound", "gpu_contention", "power_capped", "thermal_throttle", "pcie_link_degraded",
		"pcie_errors", "xid_error", "ecc_errors", "serving_underfilled", "mig"}
	var got []string
	for _, s := range Scenarios() {
		if s.Summary == "" {
			t.Errorf("scenario %s has no summary", s.ID)
		}
		got = append(got, s.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Scenarios() = %v\nwant %v", got, want)
	}
}

func TestUnknownScenarioListsValidIDs(t *testing.T) {
	_, err := New("no_such_thing", 1, t0)
	if err == nil {
		t.Fatal("New accepted an unknown scenario")
	}
	for _, s := range Scenarios() {
		if !strings.Contains(err.Error(), s.ID) {
			t.Errorf("error %q does not list %s", err, s.ID)
		}
	}
}

var uuidRE = regexp.MustCompile(`^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// TestPhysicalSanity runs every scenario for 180 s at 1 s ticks and checks
// that every reading is one real hardware could give.
func TestPhysicalSanity(t *testing.T) {
	for _, s := range Scenarios() {
		t.Run(s.ID, func(t *testing.T) {
			n, frames := run(t, s.ID, 7, 180*time.Second, time.Second)
			if !strings.HasPrefix(n.Hostname(), "gpu-node-") {
				t.Errorf("hostname %q", n.Hostname())
			}
			for i, fr := range frames {
				checkGPUs(t, i, fr, s.ID)
				checkHost(t, i, fr)
			}
		})
	}
}

func checkGPUs(t *testing.T, tick int, fr frame, scenario string) {
	t.Helper()
	if len(fr.gpus) != numGPUs {
		t.Fatalf("tick %d: %d GPUs", tick, len(fr.gpus))
	}
	seen := map[string]bool{}
	for i, g := range fr.gpus {
		if g.Index != i || !uuidRE.MatchString(g.UUID) || seen[g.UUID] || g.BusID == "" || g.Name != "NVIDIA H200" || g.Arch != "Hopper" {
			t.Fatalf("tick %d GPU %d: bad identity %d %q %q %q %q", tick, i, g.Index, g.UUID, g.BusID, g.Name, g.Arch)
		}
		seen[g.UUID] = true
		for name, m := range map[string]sampler.Metric{"util": g.Util, "mem_util": g.MemUtil, "sm_active": g.SMActive,
			"sm_occupancy": g.SMOccupancy, "tensor_active": g.TensorActive, "dram_active": g.DRAMActive, "enc": g.EncUtil, "dec": g.DecUtil} {
			if g.MIG && (name == "util" || name == "mem_util") && !m.OK && g.NA[name] != "" {
				continue // not reported under MIG, with the reason
			}
			if !m.OK || m.V < 0 || m.V > 100 {
				t.Fatalf("tick %d GPU %d: %s = %+v", tick, i, name, m)
			}
		}
		if g.Power.V <= 0 || g.Power.V > g.PowerLimit.V+1 {
			t.Fatalf("tick %d GPU %d: power %.1f over limit %.0f", tick, i, g.Power.V, g.PowerLimit.V)
		}
		if g.MemUsed.V <= 0 || g.MemUsed.V > g.MemTotal.V || g.MemTotal.V != memTotal {
			t.Fatalf("tick %d GPU %d: memory %.0f of %.0f", tick, i, g.MemUsed.V, g.MemTotal.V)
		}
		if g.SMClock.V <= 0 || g.SMClock.V > g.SMClockMax.V || g.MemClock.V > g.MemClockMax.V {
			t.Fatalf("tick %d GPU %d: clocks %.0f/%.0f", tick, i, g.SMClock.V, g.MemClock.V)
		}
		if g.Temp.V < 20 || g.Temp.V > g.TempSlowdown.V+5 {
			t.Fatalf("tick %d GPU %d: temperature %.0f", tick, i, g.Temp.V)
		}
		if g.PCIeGen.V < 1 || g.PCIeGen.V > g.PCIeGenMax.V || g.PCIeWidth.V > g.PCIeWidthMax.V || g.PCIeRx.V < 0 || g.PCIeRx.V > 64e9 {
			t.Fatalf("tick %d GPU %d: PCIe gen %.0f width %.0f rx %.0f", tick, i, g.PCIeGen.V, g.PCIeWidth.V, g.PCIeRx.V)
		}
		if g.Fan.OK || g.NA["fan"] == "" || !g.ClockEvents.OK || g.Persistence != "on" || g.ComputeMode != "default" {
			t.Fatalf("tick %d GPU %d: fan %+v (%q), events %v, persistence %q", tick, i, g.Fan, g.NA["fan"], g.ClockEvents, g.Persistence)
		}
		if wantNUMA := float64(i / 4); g.NUMANode.V != wantNUMA || g.CPUAffinity == "" {
			t.Fatalf("tick %d GPU %d: NUMA %v affinity %q", tick, i, g.NUMANode, g.CPUAffinity)
		}
		if wantLinks := nvLinksPerGPU; scenario != "comm_bound" && len(g.NVLinks) != wantLinks {
			t.Fatalf("tick %d GPU %d: %d NVLinks", tick, i, len(g.NVLinks))
		}
		if g.Util.V == 0 && g.SMClock.V > smClockIdle && !g.ClockEvents.Has(sampler.ClockGpuIdle) && len(g.Procs) == 0 {
			t.Fatalf("tick %d GPU %d: idle and empty but clocks %.0f, events %v", tick, i, g.SMClock.V, g.ClockEvents)
		}
		for _, p := range g.Procs {
			if p.Type != "C" || p.MemUsed.V <= 0 || p.SMUtil.V > g.Util.V+1 {
				t.Fatalf("tick %d GPU %d: process %+v", tick, i, p)
			}
			if _, ok := fr.host.Procs[p.PID]; !ok {
				t.Fatalf("tick %d GPU %d: PID %d missing from Host.Procs", tick, i, p.PID)
			}
		}
	}
}

func checkHost(t *testing.T, tick int, fr frame) {
	t.Helper()
	h := fr.host
	if len(h.CPUs) != numCores {
		t.Fatalf("tick %d: %d cores", tick, len(h.CPUs))
	}
	for c, v := range h.CPUs {
		if v < 0 || v > 100 {
			t.Fatalf("tick %d: core %d at %.1f%%", tick, c, v)
		}
	}
	if h.CPU.V < 0 || h.CPU.V+h.IOWait.V > 100.1 || h.MemUsed.V > h.MemTotal.V || h.Load1.V < 0 {
		t.Fatalf("tick %d: host cpu %.1f iowait %.1f mem %.0f/%.0f", tick, h.CPU.V, h.IOWait.V, h.MemUsed.V, h.MemTotal.V)
	}
	for pid, p := range h.Procs {
		if p.PID != pid || p.User == "" || p.Cmdline == "" || p.Start.IsZero() || !p.Start.Before(t0) || p.CPU.V < 0 {
			t.Fatalf("tick %d: process %+v", tick, p)
		}
		if p.Threads <= 0 || p.RSS.V <= 0 || !strings.Contains("RSD", p.State) {
			t.Fatalf("tick %d: process %d threads %d rss %.0f state %q", tick, pid, p.Threads, p.RSS.V, p.State)
		}
		for _, c := range p.Children {
			if child, ok := h.Procs[c]; !ok || child.PPID != pid {
				t.Fatalf("tick %d: child %d of %d missing or has another parent", tick, c, pid)
			}
		}
	}
}

func snapshotJSON(t *testing.T, scenario string, seed int64, ticks []time.Duration) string {
	t.Helper()
	n, err := New(scenario, seed, t0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, at := range ticks {
		n.AdvanceTo(t0.Add(at))
		if err := enc.Encode(struct {
			GPUs []sampler.GPU
			Host *sampler.Host
			Topo *sampler.Topology
		}{n.GPUs(), n.Host(), n.Topology()}); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func seconds(n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(i+1) * time.Second
	}
	return out
}

func TestDeterminism(t *testing.T) {
	for _, s := range []string{"mixed", "xid_error", "input_starved"} {
		a := snapshotJSON(t, s, 42, seconds(60))
		if b := snapshotJSON(t, s, 42, seconds(60)); a != b {
			t.Errorf("%s: same seed gave different output", s)
		}
		if c := snapshotJSON(t, s, 43, seconds(60)); a == c {
			t.Errorf("%s: seeds 42 and 43 gave identical output", s)
		}
	}
}

// TestTickRateConsistency: a node ticked every 100 ms and one ticked every
// second agree at every whole second (Xids aside: they are reported once per
// advance, so they spread differently over the ticks).
func TestTickRateConsistency(t *testing.T) {
	fast, err := New("mixed", 5, t0)
	if err != nil {
		t.Fatal(err)
	}
	slow, _ := New("mixed", 5, t0)
	for s := 1; s <= 30; s++ {
		for k := 1; k <= 10; k++ {
			fast.AdvanceTo(t0.Add(time.Duration(s-1)*time.Second + time.Duration(k)*100*time.Millisecond))
		}
		slow.AdvanceTo(t0.Add(time.Duration(s) * time.Second))
		a, _ := json.Marshal(fast.GPUs())
		b, _ := json.Marshal(slow.GPUs())
		ha, _ := json.Marshal(fast.Host())
		hb, _ := json.Marshal(slow.Host())
		if string(a) != string(b) || string(ha) != string(hb) {
			t.Fatalf("at %d s, 100 ms and 1 s ticking disagree", s)
		}
	}
}

func TestGPUsReturnsFreshCopies(t *testing.T) {
	n, _ := New("healthy", 1, t0)
	n.AdvanceTo(t0.Add(time.Second))
	a := n.GPUs()
	a[0].NA["fan"] = "scribbled"
	a[0].Procs[0].PID = -1
	b := n.GPUs()
	if b[0].NA["fan"] != "not supported" || b[0].Procs[0].PID == -1 {
		t.Fatal("GPUs() shares state between calls")
	}
	h := n.Host()
	h.Procs[b[0].Procs[0].PID].Children[0] = -1
	if n.Host().Procs[b[0].Procs[0].PID].Children[0] == -1 {
		t.Fatal("Host() shares state between calls")
	}
}

func TestHostSourceAdvancesClock(t *testing.T) {
	n, _ := New("input_starved", 3, t0)
	h, err := n.HostSource().Sample(t0.Add(10*time.Second), nil)
	if err != nil || h == nil || n.t() != 10 {
		t.Fatalf("Sample: host %v err %v, clock at %.1f s", h != nil, err, n.t())
	}
}

func BenchmarkAdvance8GPUs(b *testing.B) {
	n, err := New("healthy", 1, t0)
	if err != nil {
		b.Fatal(err)
	}
	at := t0
	b.ReportAllocs()
	for b.Loop() {
		at = at.Add(time.Second)
		n.AdvanceTo(at)
	}
}

// TestConcurrentUse: a demo's GPU source and host source may share a node
// across goroutines (the race detector of `make test` watches the locks),
// and the node they share ends where one advanced alone does: the clock,
// not the order of the calls, decides the physics.
func TestConcurrentUse(t *testing.T) {
	n, _ := New("mixed", 9, t0)
	done := make(chan error, 1)
	go func() {
		var err error
		for s := 1; s <= 20 && err == nil; s++ {
			_, err = n.HostSource().Sample(t0.Add(time.Duration(s)*time.Second), nil)
		}
		done <- err
	}()
	for s := 1; s <= 20; s++ {
		n.AdvanceTo(t0.Add(time.Duration(s) * time.Second))
		_ = n.GPUs()
	}
	if err := <-done; err != nil {
		t.Fatalf("host sample: %v", err)
	}
	alone, _ := New("mixed", 9, t0)
	for s := 1; s <= 20; s++ {
		alone.AdvanceTo(t0.Add(time.Duration(s) * time.Second))
	}
	for what, pair := range map[string][2]any{"GPUs": {n.GPUs(), alone.GPUs()}, "host": {n.Host(), alone.Host()}} {
		shared, _ := json.Marshal(pair[0])
		single, _ := json.Marshal(pair[1])
		if string(shared) != string(single) {
			t.Errorf("%s after concurrent use differ from a node advanced alone", what)
		}
	}
}

// TestTruthIsStableUntilTheClockMoves: fakenvml asks for the truth on every
// NVML call; it must be one consistent reading per clock position.
func TestTruthIsStableUntilTheClockMoves(t *testing.T) {
	n, _ := New("healthy", 1, t0)
	n.AdvanceTo(t0.Add(time.Second))
	a, b := n.Truth(), n.Truth()
	if &a[0] != &b[0] {
		t.Fatal("Truth() rebuilt without a clock move")
	}
	n.AdvanceTo(t0.Add(time.Second)) // same time: no move
	if c := n.Truth(); &c[0] != &a[0] {
		t.Fatal("Truth() rebuilt on an AdvanceTo to the same time")
	}
	n.AdvanceTo(t0.Add(2 * time.Second))
	if c := n.Truth(); &c[0] == &a[0] {
		t.Fatal("Truth() not rebuilt after the clock moved")
	}
	ja, _ := json.Marshal(n.Truth())
	jb, _ := json.Marshal(n.GPUs())
	if string(ja) != string(jb) {
		t.Fatal("Truth() and GPUs() disagree")
	}
}

func BenchmarkTruth(b *testing.B) {
	n, _ := New("healthy", 1, t0)
	at := t0
	for b.Loop() {
		at = at.Add(time.Second)
		n.AdvanceTo(at)
		for range 30 { // ~30 NVML calls per GPU per tick read the truth
			_ = n.Truth()
		}
	}
}
