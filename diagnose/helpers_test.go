package diagnose

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

var t0 = time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)

const (
	h200Mem   = 141e9
	h200Power = 700.0
	maxClock  = 1980.0
)

// scene fills one snapshot of a synthetic window: t is the tick (seconds),
// r a seeded random source for noise.
type scene func(t int, r *rand.Rand, s *sampler.Snapshot)

// makeWindow builds n snapshots at 1 s ticks of 8 idle H200s and an idle
// host, then lets each scene modify them.
func makeWindow(n int, scenes ...scene) []sampler.Snapshot {
	r := rand.New(rand.NewPCG(1, 2))
	w := make([]sampler.Snapshot, n)
	for t := range w {
		s := &w[t]
		s.Time, s.Seq = t0.Add(time.Duration(t)*time.Second), uint64(t)
		s.Host = &sampler.Host{CPU: sampler.Some(5 + r.Float64()*3), IOWait: sampler.Some(r.Float64()), Procs: map[int]*sampler.Proc{},
			DiskRead: sampler.Some(1e6), NetRx: sampler.Some(1e6)}
		s.GPUs = make([]sampler.GPU, 8)
		for i := range s.GPUs {
			s.GPUs[i] = idleGPU(i)
		}
		for _, sc := range scenes {
			sc(t, r, s)
		}
	}
	return w
}

func idleGPU(i int) sampler.GPU {
	return sampler.GPU{
		Index: i, Name: "NVIDIA H200", Arch: "Hopper",
		Util: sampler.Some(0), MemUtil: sampler.Some(0),
		SMActive: sampler.Some(0), SMOccupancy: sampler.Some(0), TensorActive: sampler.Some(0), DRAMActive: sampler.Some(0),
		MemUsed: sampler.Some(0.6e9), MemTotal: sampler.Some(h200Mem),
		Temp: sampler.Some(31), TempSlowdown: sampler.Some(90), Power: sampler.Some(72), PowerLimit: sampler.Some(h200Power),
		SMClock: sampler.Some(345), SMClockMax: sampler.Some(maxClock), MemClock: sampler.Some(2619),
		ClockEvents: sampler.ClockEvents{Mask: sampler.ClockGpuIdle, OK: true},
		// Idle links downtrain: Gen1 at idle must not be reported.
		PCIeRx: sampler.Some(1e5), PCIeTx: sampler.Some(1e5), PCIeGen: sampler.Some(1), PCIeGenMax: sampler.Some(5),
		PCIeWidth: sampler.Some(16), PCIeWidthMax: sampler.Some(16), PCIeReplays: sampler.Some(0),
		ECCUncorrected: sampler.Some(0), ECCCorrected: sampler.Some(0),
	}
}

func between(r *rand.Rand, lo, hi float64) float64 { return lo + r.Float64()*(hi-lo) }

// busy sets a healthy training load on g.
func busy(r *rand.Rand, g *sampler.GPU) {
	g.Util = sampler.Some(between(r, 95, 100))
	g.SMActive = sampler.Some(between(r, 75, 90))
	g.SMOccupancy = sampler.Some(between(r, 40, 60))
	g.TensorActive = sampler.Some(between(r, 45, 70))
	g.DRAMActive = sampler.Some(between(r, 30, 50))
	g.MemUtil = sampler.Some(between(r, 30, 50))
	g.MemUsed = sampler.Some(90e9)
	g.Power = sampler.Some(h200Power * between(r, 0.75, 0.92))
	g.Temp = sampler.Some(between(r, 60, 72))
	g.SMClock = sampler.Some(maxClock - between(r, 0, 40))
	g.ClockEvents = sampler.ClockEvents{OK: true}
	g.PCIeGen = sampler.Some(5)
	g.PCIeRx = sampler.Some(between(r, 1e9, 3e9))
	g.PCIeTx = sampler.Some(between(r, 0.1e9, 0.5e9))
}

// proc describes a GPU process for attach.
type proc struct {
	pid, ppid int
	cmd, user string
	cpu       float64
	mem       float64
	smUtil    sampler.Metric
	start     time.Time
}

// attach puts p on GPU gi and in the host table.
func attach(s *sampler.Snapshot, gi int, p proc) *sampler.Proc {
	hp := &sampler.Proc{PID: p.pid, PPID: p.ppid, Cmdline: p.cmd, Name: firstWord(p.cmd), User: p.user,
		CPU: sampler.Some(p.cpu), State: "S", Start: p.start}
	if p.cpu >= 90 {
		hp.State = "R"
	}
	s.Host.Procs[p.pid] = hp
	s.GPUs[gi].Procs = append(s.GPUs[gi].Procs, sampler.GPUProc{PID: p.pid, Type: "C", MemUsed: sampler.Some(p.mem), SMUtil: p.smUtil, Host: hp})
	return hp
}

// addWorker adds a child (DataLoader worker) of parent.
func addWorker(s *sampler.Snapshot, parent *sampler.Proc, pid int, cpu float64, state string) {
	s.Host.Procs[pid] = &sampler.Proc{PID: pid, PPID: parent.PID, Name: "python", Cmdline: "python train.py", CPU: sampler.Some(cpu), State: state}
	parent.Children = append(parent.Children, pid)
}

func firstWord(s string) string {
	for i := range s {
		if s[i] == ' ' {
			return s[:i]
		}
	}
	return s
}

// healthyRank makes GPU gi one torchrun rank with 8 busy workers.
func healthyRank(gi int) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		busy(r, &s.GPUs[gi])
		hp := attach(s, gi, proc{pid: 5000 + gi, ppid: 4999, cmd: "python train.py --rank", user: "ana", cpu: between(r, 60, 90), mem: 88e9})
		for k := range 8 {
			addWorker(s, hp, 6000+gi*10+k, between(r, 20, 60), "S")
		}
		s.Host.CPU = sampler.Some(between(r, 40, 55))
	}
}

func healthyNode() []scene {
	var sc []scene
	for gi := range 8 {
		sc = append(sc, healthyRank(gi))
	}
	return append(sc, nvlinkTopology)
}

func nvlinkTopology(_ int, _ *rand.Rand, s *sampler.Snapshot) { s.Topology = topology("NV18") }

func pcieTopology(_ int, _ *rand.Rand, s *sampler.Snapshot) { s.Topology = topology("SYS") }

func topology(link string) *sampler.Topology {
	t := &sampler.Topology{Links: make([][]string, 8)}
	for i := range t.Links {
		t.Links[i] = make([]string, 8)
		for j := range t.Links[i] {
			t.Links[i][j] = link
			if i == j {
				t.Links[i][j] = "X"
			}
		}
	}
	return t
}

// has reports whether fs holds rule (on gpu, or any GPU when gpu == anyGPU).
func has(fs []Finding, rule string, gpu int) (Finding, bool) {
	for _, f := range fs {
		if f.Rule == rule && (gpu == anyGPU || f.GPU == gpu) {
			return f, true
		}
	}
	return Finding{}, false
}

const anyGPU = -99

func requireRule(t *testing.T, fs []Finding, rule string, gpu int) Finding {
	t.Helper()
	f, ok := has(fs, rule, gpu)
	if !ok {
		t.Fatalf("want %s on GPU %d, got %s", rule, gpu, describe(fs))
	}
	if f.Title == "" || f.Evidence == "" || f.Hint == "" || f.Since.IsZero() || f.LastSeen.IsZero() {
		t.Fatalf("%s: incomplete finding %+v", rule, f)
	}
	return f
}

func forbidRule(t *testing.T, fs []Finding, rule string, gpu int) {
	t.Helper()
	if f, ok := has(fs, rule, gpu); ok {
		t.Fatalf("did not want %s on GPU %d: %s — %s", rule, gpu, f.Title, f.Evidence)
	}
}

func describe(fs []Finding) string {
	out := "["
	for _, f := range fs {
		out += "\n  " + f.Rule + "/" + f.Severity.String() + " gpu " + itoa(f.GPU) + ": " + f.Evidence
	}
	return out + "]"
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// encoding keeps GPU 0's video encoder busy at pct (GPU-Util does not count it).
func encoding(pct float64) scene {
	return func(_ int, r *rand.Rand, s *sampler.Snapshot) {
		s.GPUs[0].EncUtil = sampler.Some(between(r, pct-5, pct+5))
	}
}
