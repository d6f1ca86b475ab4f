package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

var evT0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func evSnap(i int, gpus ...sampler.GPU) sampler.Snapshot {
	return sampler.Snapshot{Time: evT0.Add(time.Duration(i) * time.Second), GPUs: gpus}
}

func busyGPU(idx int, util, power, limit float64) sampler.GPU {
	return sampler.GPU{Index: idx, Util: sampler.Some(util), Power: sampler.Some(power), PowerLimit: sampler.Some(limit),
		MemUsed: sampler.Some(10 << 30), MemTotal: sampler.Some(80 << 30)}
}

func evRules(fs []Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.Rule+":"+string(rune('0'+f.GPU)))
	}
	return strings.Join(s, " ")
}

func TestEvidenceOneSnapshotFacts(t *testing.T) {
	full := busyGPU(0, 80, 500, 700)
	full.MemUsed = sampler.Some(79 << 30)
	full.Procs = []sampler.GPUProc{{PID: 9, Type: "C", Host: &sampler.Proc{PID: 9, Name: "python"}}}
	ecc := busyGPU(1, 80, 500, 700)
	ecc.ECCUncorrected = sampler.Some(2)
	spin := busyGPU(2, 100, 100, 700)
	link := busyGPU(3, 90, 500, 700)
	link.PCIeGen, link.PCIeGenMax, link.PCIeWidth, link.PCIeWidthMax = sampler.Some(3), sampler.Some(5), sampler.Some(16), sampler.Some(16)
	held := busyGPU(4, 0, 60, 700)
	held.Procs = []sampler.GPUProc{{PID: 7, Type: "C"}}
	hot := busyGPU(5, 90, 300, 700)
	hot.ClockEvents = sampler.ClockEvents{OK: true, Mask: sampler.ClockHwSlowdown | sampler.ClockHwThermal}
	lost := sampler.GPU{Index: 6, Lost: true, BusID: "0000:41:00.0"}
	got := evRules(Evidence([]sampler.Snapshot{evSnap(0, full, ecc, spin, link, held, hot, lost)}))
	for _, want := range []string{"memory_pressure:0", "ecc_errors:1", "launch_bound:2", "pcie_link_degraded:3",
		"memory_idle_held:4", "thermal_throttle:5", "xid_error:6"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in %s", want, got)
		}
	}
}

// What is not a fault stays silent: an NVENC-only load, N/A util under MIG,
// an idle GPU at PCIe Gen1, a full-load GPU whose limits are unknown, idle
// clock reasons, a board at its power limit reading 0 %.
func TestEvidenceSilentOnNonFaults(t *testing.T) {
	enc := busyGPU(0, 0, 80, 250)
	enc.EncUtil = sampler.Some(60)
	mig := sampler.GPU{Index: 1, MIG: true, MemUsed: sampler.Some(11 << 30), MemTotal: sampler.Some(80 << 30)}
	gen1 := busyGPU(2, 0, 30, 300)
	gen1.MemUsed = sampler.Some(1 << 20)
	gen1.PCIeGen, gen1.PCIeGenMax = sampler.Some(1), sampler.Some(4)
	gen1.ClockEvents = sampler.ClockEvents{OK: true, Mask: sampler.ClockGpuIdle}
	full := sampler.GPU{Index: 3, Util: sampler.Some(100), Power: sampler.Some(300)}
	miner := busyGPU(4, 0, 100, 100)
	if got := Evidence([]sampler.Snapshot{evSnap(0, enc, mig, gen1, full, miner)}); len(got) != 0 {
		t.Fatalf("want silence, got %s", evRules(got))
	}
}

// One table of a served model between requests (~90 % held at 0 %) with no
// process listed: left behind or waiting for requests cannot be told
// apart, so memory_idle_held stays unjudged; listing the process judges it.
func TestEvidenceIdleHeldNeedsProcessList(t *testing.T) {
	a, b := busyGPU(0, 0, 16, 250), busyGPU(1, 0, 31, 250)
	a.MemUsed, b.MemUsed = sampler.Some(21865<<20), sampler.Some(21487<<20)
	a.MemTotal, b.MemTotal = sampler.Some(24576<<20), sampler.Some(24576<<20)
	if got := evRules(Evidence([]sampler.Snapshot{evSnap(0, a, b)})); strings.Contains(got, RuleMemoryIdleHeld) {
		t.Errorf("no process listed, yet %s", got)
	}
	a.Procs = []sampler.GPUProc{{PID: 7, Type: "C"}}
	if got := evRules(Evidence([]sampler.Snapshot{evSnap(0, a, b)})); !strings.Contains(got, RuleMemoryIdleHeld+":0") {
		t.Errorf("process listed on GPU 0: got %q, want %s:0", got, RuleMemoryIdleHeld)
	}
}

// A shared server's table: three GPUs at 100 % on little power beside idle
// ones and no process list. Whose they are is unknown, so neither
// launch_bound on each nor comm_bound over them is named. Memory as in the
// corpus's 8x4090 table (smi-table-collapsed-8x4090-*): the idle GPUs hold
// memory too, the spinning ones uneven amounts.
func TestEvidenceSpinningSharedServerUnjudged(t *testing.T) {
	mib := func(g sampler.GPU, n float64) sampler.GPU { g.MemUsed = sampler.Some(n * (1 << 20)); return g }
	snap := evSnap(0, mib(busyGPU(0, 0, 69, 450), 22273), mib(busyGPU(1, 100, 93, 450), 20622), mib(busyGPU(2, 100, 106, 450), 20584),
		mib(busyGPU(3, 0, 124, 450), 21833), mib(busyGPU(4, 99, 118, 450), 4171))
	if got := evRules(Evidence([]sampler.Snapshot{snap})); strings.Contains(got, RuleLaunchBound) || strings.Contains(got, RuleCommBound) {
		t.Errorf("shared server without processes: %s", got)
	}
}

func TestEvidenceShortSeriesWithConfidence(t *testing.T) {
	var snaps []sampler.Snapshot
	for i, u := range []float64{95, 5, 97, 3, 96, 4, 98, 2} {
		idle := busyGPU(1, 0, 60, 300)
		snaps = append(snaps, evSnap(i, busyGPU(0, u, 200, 300), idle))
	}
	fs := Evidence(snaps)
	var swing, held *Finding
	for i := range fs {
		switch {
		case fs[i].Rule == RuleHostWait && fs[i].GPU == 0:
			swing = &fs[i]
		case fs[i].Rule == RuleInputStarved || fs[i].Rule == RuleSyncStall:
			t.Errorf("GPU-Util alone named %s, a cause it cannot tell from the other: %s", fs[i].Rule, fs[i].Evidence)
		case fs[i].Rule == RuleMemoryIdleHeld && fs[i].GPU == 1:
			held = &fs[i]
		}
	}
	if swing == nil || !strings.Contains(swing.Estimated, "7s of data (8 samples); 1m0s would confirm") ||
		!strings.Contains(swing.Hint, "nsys") {
		t.Fatalf("swing finding %+v", swing)
	}
	if held == nil || !strings.Contains(held.Evidence, "GPU 0 busy meanwhile") {
		t.Fatalf("idle-held finding %+v (all: %s)", held, evRules(fs))
	}
	// Two samples are not a series.
	if got := evRules(Evidence(snaps[:2])); strings.Contains(got, RuleHostWait) {
		t.Errorf("two samples judged as a series: %s", got)
	}
}

func TestEvidenceMultiGPUJobOverPCIe(t *testing.T) {
	a, b := busyGPU(0, 90, 250, 300), busyGPU(1, 90, 250, 300)
	a.Procs = []sampler.GPUProc{{PID: 10, Type: "C", Host: &sampler.Proc{PID: 10, Name: "python train.py"}}}
	b.Procs = []sampler.GPUProc{{PID: 11, Type: "C", Host: &sampler.Proc{PID: 11, Name: "python train.py"}}}
	s := evSnap(0, a, b)
	s.Topology = &sampler.Topology{Links: [][]string{{"X", "SYS"}, {"SYS", "X"}}}
	fs := Evidence([]sampler.Snapshot{s})
	if got := evRules(fs); !strings.Contains(got, RuleCommBound) {
		t.Fatalf("want comm_bound, got %s", got)
	}
	s.Topology = &sampler.Topology{Links: [][]string{{"X", "NV4"}, {"NV4", "X"}}}
	if got := evRules(Evidence([]sampler.Snapshot{s})); strings.Contains(got, RuleCommBound) {
		t.Fatalf("NVLink-connected job flagged: %s", got)
	}
}

func TestEvidenceXidCatalogue(t *testing.T) {
	g := sampler.GPU{Index: 0, Xids: []sampler.Xid{{Code: 31}, {Code: 31}, {Code: 48}}}
	fs := Evidence([]sampler.Snapshot{evSnap(0, g)})
	if len(fs) != 1 || fs[0].Severity != Critical || !strings.Contains(fs[0].Evidence, "Xid 31 (GPU memory page fault (MMU fault)) ×2") ||
		!strings.Contains(fs[0].Hint, "Xid 48") || !strings.Contains(fs[0].Hint, XidURL) {
		t.Fatalf("got %+v", fs)
	}
	app := Evidence([]sampler.Snapshot{evSnap(0, sampler.GPU{Index: 0, Xids: []sampler.Xid{{Code: 13}}})})
	if len(app) != 1 || app[0].Severity != Warning {
		t.Fatalf("an application Xid: %+v", app)
	}
}

func TestEvidenceEngineAddsOnlyForImportedLogs(t *testing.T) {
	g := busyGPU(0, 80, 500, 700)
	g.ECCUncorrected = sampler.Some(1)
	s := evSnap(0, g)
	if fs := NewEvidenceEngine(Options{}).Evaluate([]sampler.Snapshot{s}); len(fs) != 1 || fs[0].Rule != RuleECCErrors {
		t.Fatalf("imported snapshot: %+v", fs)
	}
	s.Host = &sampler.Host{}
	for _, f := range NewEvidenceEngine(Options{}).Evaluate([]sampler.Snapshot{s}) {
		if f.Estimated != "" && strings.Contains(f.Estimated, "one snapshot") {
			t.Fatalf("a recording with host data got an evidence finding: %+v", f)
		}
	}
}

// nvidia-smi's infoROM warning is a hardware warning on that GPU, beside
// its memory-error records (ecc_errors), with the board's fix.
func TestEvidenceInfoROMCorrupted(t *testing.T) {
	bad := busyGPU(7, 0, 42, 300)
	bad.BusID, bad.InfoROMCorrupt = "00000008:00:00.0", true
	fs := Evidence([]sampler.Snapshot{evSnap(0, busyGPU(0, 0, 43, 300), bad)})
	f := requireRule(t, fs, RuleECCErrors, 7)
	if f.Severity != Warning || f.FixID != hintInfoROM.id || !strings.Contains(f.Evidence, "00000008:00:00.0") {
		t.Errorf("finding %s %s: %q", f.Severity, f.FixID, f.Evidence)
	}
	forbidRule(t, fs, RuleECCErrors, 0)
}
