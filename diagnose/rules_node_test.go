package diagnose

import (
	"math/rand/v2"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// crowded puts n training processes of the given users on GPU 0.
func crowded(users ...string) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		busy(r, &s.GPUs[0])
		s.GPUs[0].Util = sampler.Some(between(r, 96, 100))
		for k, u := range users {
			attach(s, 0, proc{pid: 7000 + k, ppid: 800 + k, cmd: "python train.py", user: u, cpu: between(r, 60, 90),
				mem: 35e9, smUtil: sampler.Some(between(r, 25, 40))})
		}
	}
}

// ranks makes an 8-rank torchrun job; perGPU sets each GPU's metrics.
func ranks(perGPU func(gi int, r *rand.Rand, g *sampler.GPU, t int)) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		for gi := range 8 {
			busy(r, &s.GPUs[gi])
			perGPU(gi, r, &s.GPUs[gi], t)
			hp := attach(s, gi, proc{pid: 5000 + gi, ppid: 4999, cmd: "python train.py", user: "ana", cpu: between(r, 60, 90), mem: 80e9})
			for k := range 4 {
				addWorker(s, hp, 6000+gi*10+k, between(r, 20, 40), "S")
			}
		}
	}
}

func stragglerJob(fastSM float64) scene {
	return ranks(func(gi int, r *rand.Rand, g *sampler.GPU, _ int) {
		g.Util = sampler.Some(between(r, 95, 100))
		g.SMActive = sampler.Some(between(r, 15, 30))
		g.TensorActive = sampler.Some(between(r, 2, 8))
		if gi == 5 {
			g.SMActive = sampler.Some(fastSM + between(r, -5, 5))
			g.TensorActive = sampler.Some(between(r, 45, 60))
		}
	})
}

// lockstep: all ranks share one dip schedule (comm waits), util mean ~45.
func lockstep() scene {
	var dip [200]bool
	rr := rand.New(rand.NewPCG(7, 7))
	for i := range dip {
		dip[i] = rr.IntN(2) == 0
	}
	return ranks(func(gi int, r *rand.Rand, g *sampler.GPU, t int) {
		if dip[t%len(dip)] {
			g.Util = sampler.Some(between(r, 5, 20))
			g.SMActive = sampler.Some(between(r, 3, 10))
			g.PCIeRx, g.PCIeTx = sampler.Some(between(r, 10e9, 25e9)), sampler.Some(between(r, 10e9, 25e9))
		} else {
			g.Util = sampler.Some(between(r, 70, 90))
		}
	})
}

func TestNodeRules(t *testing.T) {
	cases := []struct {
		name   string
		scenes []scene
		rule   string
		gpu    int
		want   bool
	}{
		{"imbalance: 3 jobs of one user on GPU 0", []scene{crowded("ana", "ana", "ana")}, RuleLoadImbalance, -1, true},
		{"imbalance: 3 users' jobs on GPU 0", []scene{crowded("ana", "bo", "cy")}, RuleLoadImbalance, -1, true},
		{"imbalance near miss: one job on GPU 0", []scene{crowded("ana")}, RuleLoadImbalance, -1, false},
		{"contention: 3 users", []scene{crowded("ana", "bo", "cy")}, RuleGPUContention, 0, true},
		{"contention on a full node is not imbalance", busyElsewhere(crowded("ana", "bo", "cy")), RuleLoadImbalance, -1, false},
		{"contention on a full node", busyElsewhere(crowded("ana", "bo", "cy")), RuleGPUContention, 0, true},
		{"contention near miss: second process nearly idle", []scene{crowded("ana", "bo"), quiet(7001)}, RuleGPUContention, 0, false},
		{"straggler: GPU 5 works, 7 wait", []scene{stragglerJob(90), nvlinkTopology}, RuleStraggler, -1, true},
		{"straggler silences launch_bound on the waiting GPUs", []scene{stragglerJob(90), nvlinkTopology}, RuleLaunchBound, anyGPU, false},
		{"straggler near miss: every GPU alike", []scene{stragglerJob(22), nvlinkTopology}, RuleStraggler, -1, false},
		{"comm: lockstep dips over PCIe", []scene{lockstep(), pcieTopology}, RuleCommBound, -1, true},
		{"comm silences copy_bound", []scene{lockstep(), pcieTopology}, RuleCopyBound, anyGPU, false},
		{"comm near miss: NVLink topology", []scene{lockstep(), nvlinkTopology}, RuleCommBound, -1, false},
		{"comm near miss: healthy over PCIe", append(healthyNode(), pcieTopology), RuleCommBound, -1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Evaluate(makeWindow(120, tc.scenes...))
			if tc.want {
				requireRule(t, fs, tc.rule, tc.gpu)
			} else {
				forbidRule(t, fs, tc.rule, tc.gpu)
			}
		})
	}
}

// busyElsewhere adds healthy single-GPU jobs on GPUs 1-7.
func busyElsewhere(sc ...scene) []scene {
	for gi := 1; gi < 8; gi++ {
		sc = append(sc, healthyRank(gi))
	}
	return sc
}

// quiet sets pid's per-process SM utilisation to 3%.
func quiet(pid int) scene {
	return func(_ int, _ *rand.Rand, s *sampler.Snapshot) {
		for i := range s.GPUs[0].Procs {
			if s.GPUs[0].Procs[i].PID == pid {
				s.GPUs[0].Procs[i].SMUtil = sampler.Some(3)
			}
		}
	}
}

func TestStragglerNamesTheSlowRank(t *testing.T) {
	f := requireRule(t, Evaluate(makeWindow(120, stragglerJob(90), nvlinkTopology)), RuleStraggler, -1)
	if f.PID != 5005 || !contains(f.Title, "GPU 5") {
		t.Fatalf("straggler finding should name GPU 5 / PID 5005: %+v", f)
	}
}

func TestContentionWithoutPerProcessUtilIsEstimated(t *testing.T) {
	w := makeWindow(120, crowded("ana", "bo"), func(_ int, _ *rand.Rand, s *sampler.Snapshot) {
		for i := range s.GPUs[0].Procs {
			s.GPUs[0].Procs[i].SMUtil = sampler.NA
		}
	})
	f := requireRule(t, Evaluate(w), RuleGPUContention, 0)
	if f.Estimated == "" || f.Severity != Info {
		t.Fatalf("want estimated info, got %+v", f)
	}
}

func TestHealthRules(t *testing.T) {
	loaded := healthyRank(0)
	cases := []struct {
		name   string
		scenes []scene
		rule   string
		sev    Severity
		want   bool
	}{
		{"power capped", []scene{loaded, powerCap(1450)}, RulePowerCapped, Warning, true},
		{"power cap bit without clock loss", []scene{loaded, powerCap(1960)}, RulePowerCapped, 0, false},
		{"hw thermal bit", []scene{loaded, thermal(sampler.ClockHwThermal, 80)}, RuleThermalThrottle, Critical, true},
		{"sw thermal near slowdown", []scene{loaded, thermal(sampler.ClockSwThermal, 89)}, RuleThermalThrottle, Warning, true},
		{"warm but fine", []scene{loaded, thermal(0, 78)}, RuleThermalThrottle, 0, false},
		{"link Gen3 under load", []scene{loaded, pcieGen(3)}, RulePCIeLinkDegraded, Warning, true},
		{"link at max under load", []scene{loaded, pcieGen(5)}, RulePCIeLinkDegraded, 0, false},
		{"replays 120/min", []scene{loaded, replays(2)}, RulePCIeErrors, Warning, true},
		{"replays 12/min", []scene{loaded, replays(0.2)}, RulePCIeErrors, 0, false},
		{"xid 13", []scene{xid(13)}, RuleXidError, Warning, true},
		{"xid 79", []scene{xid(79)}, RuleXidError, Critical, true},
		{"xid 119 GSP timeout", []scene{xid(119)}, RuleXidError, Critical, true}, // the catalogue: reset the GPU
		{"xid 45 cleanup", []scene{xid(45)}, RuleXidError, Warning, true},
		{"xid past the catalogue", []scene{xid(900)}, RuleXidError, Warning, true},
		{"gpu lost", []scene{lost}, RuleXidError, Critical, true},
		{"ecc dbe", []scene{ecc(2, false)}, RuleECCErrors, Critical, true},
		{"remap pending", []scene{ecc(0, true)}, RuleECCErrors, Warning, true},
		{"corrected only", []scene{func(_ int, _ *rand.Rand, s *sampler.Snapshot) { s.GPUs[0].ECCCorrected = sampler.Some(40) }}, RuleECCErrors, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Evaluate(makeWindow(90, tc.scenes...))
			if !tc.want {
				forbidRule(t, fs, tc.rule, 0)
				return
			}
			if f := requireRule(t, fs, tc.rule, 0); f.Severity != tc.sev {
				t.Fatalf("severity %s, want %s: %s", f.Severity, tc.sev, f.Evidence)
			}
		})
	}
}

func powerCap(clock float64) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		g := &s.GPUs[0]
		g.PowerLimit = sampler.Some(450)
		g.Power = sampler.Some(between(r, 440, 450))
		if t%10 < 7 {
			g.ClockEvents = sampler.ClockEvents{Mask: sampler.ClockSwPowerCap, OK: true}
			g.SMClock = sampler.Some(clock + between(r, -20, 20))
		}
	}
}

func thermal(bit uint64, temp float64) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		g := &s.GPUs[0]
		g.Temp = sampler.Some(temp + between(r, -1, 1))
		if bit != 0 && t%4 == 0 {
			g.ClockEvents = sampler.ClockEvents{Mask: bit, OK: true}
			g.SMClock = sampler.Some(between(r, 1100, 1500))
		}
	}
}

func pcieGen(gen float64) scene {
	return func(_ int, _ *rand.Rand, s *sampler.Snapshot) { s.GPUs[0].PCIeGen = sampler.Some(gen) }
}

func replays(perSecond float64) scene {
	return func(t int, _ *rand.Rand, s *sampler.Snapshot) {
		s.GPUs[0].PCIeReplays = sampler.Some(float64(int(1000 + perSecond*float64(t))))
	}
}

func xid(code uint64) scene {
	return func(t int, _ *rand.Rand, s *sampler.Snapshot) {
		if t == 40 {
			s.GPUs[0].Xids = []sampler.Xid{{Time: s.Time, Code: code}}
		}
	}
}

func lost(t int, _ *rand.Rand, s *sampler.Snapshot) {
	if t >= 60 {
		s.GPUs[0] = sampler.GPU{Index: 0, Lost: true}
	}
}

func ecc(dbe float64, pending bool) scene {
	return func(_ int, _ *rand.Rand, s *sampler.Snapshot) {
		s.GPUs[0].ECCUncorrected = sampler.Some(dbe)
		s.GPUs[0].RemapPending = pending
	}
}
