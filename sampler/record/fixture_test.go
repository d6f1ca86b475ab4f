package record

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// realisticSnapshot is an 8-GPU H100 node as the NVML source fills it: most
// fields present, a few n/a, two processes per GPU, host data.
func realisticSnapshot(i int) sampler.Snapshot {
	s := sampler.Snapshot{
		Time: t0.Add(time.Duration(i) * time.Second),
		Seq:  uint64(i + 1),
		Node: sampler.Node{Hostname: "gpu-node-17", Driver: "550.54.15", CUDA: "12.4", NVML: "12.550.54.15", Source: "nvml"},
	}
	for g := range 8 {
		f := float64((i*7 + g*13) % 100)
		gpu := sampler.GPU{
			Index: g, UUID: fmt.Sprintf("GPU-8a3c1f2e-0000-4000-8000-00000000000%d", g),
			Name: "NVIDIA H100 80GB HBM3", BusID: fmt.Sprintf("00000000:%02X:00.0", 0x18+g*0x10), Arch: "Hopper",
			Util: sampler.Some(f), MemUtil: sampler.Some(f / 2), EncUtil: sampler.Some(0), DecUtil: sampler.Some(0),
			SMActive: sampler.Some(f * 0.8), SMOccupancy: sampler.Some(f * 0.4), TensorActive: sampler.Some(f * 0.3),
			DRAMActive: sampler.Some(f * 0.5), NVLinkRx: sampler.Some(1.2e9 + f), NVLinkTx: sampler.Some(1.1e9 + f),
			MemUsed: sampler.Some(61234 * 1048576), MemTotal: sampler.Some(81559 * 1048576),
			Temp: sampler.Some(40 + f/5), TempSlowdown: sampler.Some(87), Power: sampler.Some(120 + f*5.5),
			PowerLimit: sampler.Some(700), Fan: sampler.NA, PState: sampler.Some(0),
			SMClock: sampler.Some(1980), MemClock: sampler.Some(2619), SMClockMax: sampler.Some(1980), MemClockMax: sampler.Some(2619),
			ClockEvents: sampler.ClockEvents{Mask: sampler.ClockSwPowerCap, OK: true},
			PCIeRx:      sampler.Some(3.2e8 + f), PCIeTx: sampler.Some(1.1e8 + f), PCIeGen: sampler.Some(5), PCIeWidth: sampler.Some(16),
			PCIeGenMax: sampler.Some(5), PCIeWidthMax: sampler.Some(16), PCIeReplays: sampler.Some(0),
			ECCUncorrected: sampler.Some(0), ECCCorrected: sampler.Some(0), Persistence: "on", ComputeMode: "default",
			NUMANode: sampler.Some(float64(g / 4)), CPUAffinity: "0-55,112-167",
			NA: map[string]string{"fan": "not supported"},
		}
		for p := range 2 {
			gpu.Procs = append(gpu.Procs, sampler.GPUProc{PID: 4000 + g*10 + p, Type: "C",
				MemUsed: sampler.Some(30000 * 1048576), SMUtil: sampler.Some(f), MemUtil: sampler.Some(f / 3)})
		}
		s.GPUs = append(s.GPUs, gpu)
	}
	s.Host = &sampler.Host{CPUs: make([]float64, 32), CPU: sampler.Some(35.5), IOWait: sampler.Some(1.5),
		Load1: sampler.Some(12), MemTotal: sampler.Some(2e12), MemUsed: sampler.Some(4e11)}
	return s
}

func readWith(t *testing.T, path string, o Options) []Entry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f, path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return readAll(t, r)
}
