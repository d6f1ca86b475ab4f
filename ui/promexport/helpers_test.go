package promexport

import (
	"fmt"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// testNode builds a node of gpus GPUs with procsPerGPU processes each, every
// reading present, so each series of both sets appears.
func testNode(gpus, procsPerGPU int) sampler.Snapshot {
	snap := sampler.Snapshot{Time: time.Unix(1_800_000_000, 0), Seq: 7,
		Node: sampler.Node{Hostname: "node-a", Driver: "560.35.03", CUDA: "12.6", Source: "test"}}
	host := &sampler.Host{CPU: sampler.Some(40), IOWait: sampler.Some(3), Load1: sampler.Some(12),
		MemTotal: sampler.Some(1 << 40), MemUsed: sampler.Some(1 << 38), SwapUsed: sampler.Some(0),
		DiskRead: sampler.Some(5e8), DiskWrite: sampler.Some(1e7), NetRx: sampler.Some(1e9), NetTx: sampler.Some(2e8),
		Procs: map[int]*sampler.Proc{}}
	pid := 1000
	for i := range gpus {
		g := sampler.GPU{Index: i, UUID: fmt.Sprintf("GPU-%08d-aaaa-bbbb-cccc-000000000000", i), Name: "NVIDIA H200",
			BusID: fmt.Sprintf("00000000:%02X:00.0", 0x18+i), Arch: "Hopper",
			Util: sampler.Some(90), MemUtil: sampler.Some(30), EncUtil: sampler.Some(0), DecUtil: sampler.Some(0),
			SMActive: sampler.Some(80), SMOccupancy: sampler.Some(40), TensorActive: sampler.Some(50), DRAMActive: sampler.Some(35),
			NVLinkRx: sampler.Some(1e10), NVLinkTx: sampler.Some(1e10), GRActive: sampler.Some(92),
			MemUsed: sampler.Some(64 << 30), MemTotal: sampler.Some(141 << 30), MemReserved: sampler.Some(576 << 20),
			Temp: sampler.Some(61), MemTemp: sampler.Some(66), Energy: sampler.Some(3.6e9), TempSlowdown: sampler.Some(90), Power: sampler.Some(550), PowerLimit: sampler.Some(700),
			Fan: sampler.Some(0), PState: sampler.Some(0),
			SMClock: sampler.Some(1980), MemClock: sampler.Some(3201), SMClockMax: sampler.Some(1980), MemClockMax: sampler.Some(3201),
			ClockEvents: sampler.ClockEvents{Mask: sampler.ClockSwPowerCap, OK: true},
			PCIeRx:      sampler.Some(2e9), PCIeTx: sampler.Some(1e9), PCIeGen: sampler.Some(5), PCIeWidth: sampler.Some(16),
			PCIeGenMax: sampler.Some(5), PCIeWidthMax: sampler.Some(16), PCIeReplays: sampler.Some(2),
			ECCUncorrected: sampler.Some(0), ECCCorrected: sampler.Some(1), RemappedRows: sampler.Some(0),
			RemappedCorrectable: sampler.Some(0), RemappedUncorrectable: sampler.Some(0)}
		for range procsPerGPU {
			pid++
			worker := pid + 100000
			hp := &sampler.Proc{PID: pid, PPID: 1, User: "alice", Name: "python", CPU: sampler.Some(95),
				Container: "3f1c9a2b7d4e", PodUID: "6b1b2f9e-8f3c-4d2a-9c1e-0a1b2c3d4e5f", Children: []int{worker},
				Pod: sampler.Pod{Namespace: "ml", Name: "train-0", Container: "trainer"}}
			host.Procs[pid] = hp
			host.Procs[worker] = &sampler.Proc{PID: worker, PPID: pid, Name: "pt_data_worker", CPU: sampler.Some(60), State: "D"}
			g.Procs = append(g.Procs, sampler.GPUProc{PID: pid, Type: "C", MemUsed: sampler.Some(2 << 30), SMUtil: sampler.Some(30), Host: hp})
		}
		snap.GPUs = append(snap.GPUs, g)
	}
	snap.Host = host
	return snap
}

func testFindings(at time.Time) []diagnose.Finding {
	return []diagnose.Finding{
		{Rule: "input_starved", Severity: diagnose.Warning, GPU: 0, PID: 1001, Since: at.Add(-time.Minute), LastSeen: at},
		{Rule: "xid_error", Severity: diagnose.Critical, GPU: -1, Since: at.Add(-2 * time.Minute), LastSeen: at},
	}
}
