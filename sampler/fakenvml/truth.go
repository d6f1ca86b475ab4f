package fakenvml

import (
	"fmt"
	"hash/fnv"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// BusID is the deterministic PCI bus id of fake GPU i, in NVML's spelling.
// Buses step by 0x0e from 0x18 (16 GPUs fit in one domain and
// stay clear of the NVSwitch buses below 0x10); every 16 GPUs take a new domain.
func BusID(i int) string {
	return fmt.Sprintf("%08X:%02X:00.0", i/16, 0x18+(i%16)*0x0e)
}

// UUID is the deterministic UUID of fake GPU i.
func UUID(i int) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "gpuscope-fake-gpu-%d", i)
	s := h.Sum64()
	return fmt.Sprintf("GPU-%08x-%04x-4%03x-8%03x-%012x", uint32(s>>32), uint16(s>>16), uint16(s)&0xfff, i&0xfff, s&0xffffffffffff)
}

// switchBusID is the PCI bus id of NVSwitch chip k (buses 0x05.. like a DGX).
func switchBusID(k int) string { return fmt.Sprintf("%08X:%02X:00.0", 0, 0x05+k) }

// SwitchLinks returns n active NVLinks spread over 4 NVSwitch chips, as on a
// DGX H100/H200 (18 links per GPU over 4 switches; nvidia-smi topo -m then
// shows NV18 between every pair of GPUs).
func SwitchLinks(n int) []sampler.NVLink {
	links := make([]sampler.NVLink, n)
	for l := range links {
		links[l] = sampler.NVLink{Link: l, Active: true, RemoteBus: switchBusID(l % 4)}
	}
	return links
}

// gpmFields are the JSON names of the GPM readings.
var gpmFields = [...]string{sampler.NASMActive, sampler.NASMOccupancy, sampler.NATensorActive, sampler.NADRAMActive, sampler.NANVLinkRx, sampler.NANVLinkTx, sampler.NAGRActive}

// BaseTruth is an idle node of n GPUs of model (ModelH200 or ModelA100) with
// plausible limits and identity: a starting point a scenario or test edits.
// The values follow the public datasheets (H200 SXM: 700 W, 1980 MHz SM,
// PCIe Gen5; A100 SXM4 40GB: 400 W, 1410 MHz SM, PCIe Gen4).
func BaseTruth(n int, model string) []sampler.GPU {
	out := make([]sampler.GPU, n)
	for i := range out {
		g := sampler.GPU{
			Index: i, UUID: UUID(i), BusID: BusID(i),
			Name: "NVIDIA H200 141GB HBM3e", Arch: "Hopper",
			Util: sampler.Some(0), MemUtil: sampler.Some(0), EncUtil: sampler.Some(0), DecUtil: sampler.Some(0),
			SMActive: sampler.Some(0), SMOccupancy: sampler.Some(0), TensorActive: sampler.Some(0),
			DRAMActive: sampler.Some(0), NVLinkRx: sampler.Some(0), NVLinkTx: sampler.Some(0), GRActive: sampler.Some(0),
			MemUsed: sampler.Some(512 << 20), MemTotal: sampler.Some(144384 << 20), MemReserved: sampler.Some(576 << 20),
			Temp: sampler.Some(32), MemTemp: sampler.Some(30), TempSlowdown: sampler.Some(87),
			Power: sampler.Some(78), PowerLimit: sampler.Some(700), PState: sampler.Some(0), Energy: sampler.Some(86400 * 78),
			SMClock: sampler.Some(345), MemClock: sampler.Some(3201),
			SMClockMax: sampler.Some(1980), MemClockMax: sampler.Some(3201),
			ClockEvents: sampler.ClockEvents{Mask: sampler.ClockGpuIdle, OK: true},
			PCIeRx:      sampler.Some(0), PCIeTx: sampler.Some(0),
			PCIeGen: sampler.Some(5), PCIeWidth: sampler.Some(16), PCIeGenMax: sampler.Some(5), PCIeWidthMax: sampler.Some(16),
			PCIeReplays: sampler.Some(0), ECCUncorrected: sampler.Some(0), ECCCorrected: sampler.Some(0),
			RemappedRows: sampler.Some(0), RemappedCorrectable: sampler.Some(0), RemappedUncorrectable: sampler.Some(0), VGPULicense: sampler.Some(0), Persistence: "on", ComputeMode: "default",
			NVLinks: SwitchLinks(18),
			NA:      map[string]string{sampler.NAFan: "not supported"}, // SXM boards have no fan of their own
		}
		// Two sockets, GPUs split between them; 56 cores + SMT siblings each
		// (a dual Xeon 8480 as in a DGX H100/H200).
		cores, node := 56, 0
		if model == ModelA100 {
			cores = 64 // dual EPYC 7742 as in a DGX A100
		}
		if n > 1 && i >= n/2 {
			node = 1
		}
		g.NUMANode = sampler.Some(float64(node))
		g.CPUAffinity = fmt.Sprintf("%d-%d,%d-%d", node*cores, node*cores+cores-1, 2*cores+node*cores, 2*cores+node*cores+cores-1)
		if model == ModelA100 {
			g.Name, g.Arch = "NVIDIA A100-SXM4-40GB", "Ampere"
			g.MemTotal = sampler.Some(40960 << 20)
			g.PowerLimit, g.Power = sampler.Some(400), sampler.Some(55)
			g.SMClockMax, g.MemClock, g.MemClockMax = sampler.Some(1410), sampler.Some(1215), sampler.Some(1215)
			g.PCIeGen, g.PCIeGenMax = sampler.Some(4), sampler.Some(4)
			g.NVLinks = SwitchLinks(12)
			for _, f := range gpmFields {
				if f != sampler.NANVLinkRx && f != sampler.NANVLinkTx { // those come from NVLink counters
					g.NA[f] = sampler.ReasonNoGPM // what the reader says of an A100's GPM
				}
			}
			g.SMActive, g.SMOccupancy, g.TensorActive = sampler.NA, sampler.NA, sampler.NA
			g.DRAMActive, g.GRActive = sampler.NA, sampler.NA
		}
		out[i] = g
	}
	return out
}

// naReturn is what NVML answers for a field the truth has as n/a: the
// truth's NA reason picks the code, so reasons round-trip through the source.
// Not inlined, as u32.
//
//go:noinline
func naReturn(g *sampler.GPU, field string) nvml.Return {
	switch g.NA[field] {
	case "no permission":
		return nvml.ERROR_NO_PERMISSION
	case "", "not supported", sampler.ReasonNoGPM:
		return nvml.ERROR_NOT_SUPPORTED
	default:
		return nvml.ERROR_UNKNOWN
	}
}
