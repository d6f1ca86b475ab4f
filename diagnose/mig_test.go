package diagnose

import (
	"math/rand/v2"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// migGPU is the MIG-enabled GPU of the MIG scenes.
const migGPU = 2

// migBusy makes GPU gi a MIG-enabled H200 split into 7× 1g.18gb instances,
// each running its own inference process: device-level GPU-Util and
// per-process SM util are n/a (NVML offers neither with MIG), per-instance
// GPM shows the work. parentGPM says whether the device-level GPM is read.
func migBusy(gi int, parentGPM bool) scene {
	return func(t int, r *rand.Rand, s *sampler.Snapshot) {
		g := &s.GPUs[gi]
		g.MIG = true
		g.Util, g.MemUtil = sampler.NA, sampler.NA
		g.NA = map[string]string{"util": "not available with MIG enabled", "mem_util": "not available with MIG enabled",
			"proc_util": "not available with MIG enabled"}
		if !parentGPM {
			g.SMActive, g.SMOccupancy, g.TensorActive, g.DRAMActive = sampler.NA, sampler.NA, sampler.NA, sampler.NA
		} else {
			g.SMActive, g.TensorActive = sampler.Some(between(r, 60, 80)), sampler.Some(between(r, 30, 50))
			g.DRAMActive, g.SMOccupancy = sampler.Some(between(r, 20, 40)), sampler.Some(between(r, 30, 50))
		}
		g.Power = sampler.Some(h200Power * between(r, 0.6, 0.8))
		g.SMClock, g.ClockEvents, g.Temp = sampler.Some(maxClock), sampler.ClockEvents{OK: true}, sampler.Some(between(r, 55, 65))
		g.MemUsed = sampler.Some(7 * 16e9)
		g.MIGDevices = make([]sampler.MIGDevice, 7)
		for k := range g.MIGDevices {
			pid := 9000 + k
			attach(s, gi, proc{pid: pid, ppid: 1, cmd: "python serve.py --port 80" + string(rune('0'+k)), user: "svc",
				cpu: between(r, 30, 60), mem: 16e9, smUtil: sampler.NA})
			g.MIGDevices[k] = sampler.MIGDevice{Index: k, GPUInstance: 7 + k, Profile: "1g.18gb", SMSlices: 1,
				MemUsed: sampler.Some(16e9), MemTotal: sampler.Some(18432 << 20),
				SMActive: sampler.Some(between(r, 60, 85)), TensorActive: sampler.Some(between(r, 30, 50)),
				DRAMActive: sampler.Some(between(r, 20, 40)), Procs: []sampler.GPUProc{g.Procs[len(g.Procs)-1]}}
		}
	}
}

// TestMIGGPUBusyInstancesNoIdleFinding: a MIG GPU whose instances are busy
// has n/a GPU-Util; no rule may read that as idle, starved, contended or
// imbalanced — on an otherwise healthy node and on an otherwise idle one.
func TestMIGGPUBusyInstancesNoIdleFinding(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scenes []scene
	}{
		{"healthy node, no parent GPM", append(healthyNode(), migBusy(migGPU, false))},
		{"healthy node, parent GPM", append(healthyNode(), migBusy(migGPU, true))},
		{"idle node, no parent GPM", []scene{migBusy(migGPU, false)}},
		{"idle node, parent GPM", []scene{migBusy(migGPU, true)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := makeWindow(180, tc.scenes...)
			if w[0].GPUs[migGPU].Util.OK || len(w[0].GPUs[migGPU].MIGDevices) != 7 {
				t.Fatal("scene did not make a MIG GPU")
			}
			for end := 40; end <= len(w); end += 20 {
				for _, f := range Evaluate(w[max(0, end-120):end]) {
					if f.GPU == migGPU {
						t.Errorf("window ending at %d s: %s on the MIG GPU: %s — %s", end, f.Rule, f.Title, f.Evidence)
					}
					if f.Severity >= Warning && tc.name[:7] == "healthy" {
						t.Errorf("window ending at %d s: %s %s on GPU %d: %s", end, f.Rule, f.Severity, f.GPU, f.Evidence)
					}
				}
			}
		})
	}
}
