package sim

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// busID is the PCI address of each of the eight SXM boards of an HGX H200
// baseboard (the layout DGX H100/H200 systems report).
func busID(gpu int) string {
	return [numGPUs]string{
		"00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
		"00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0",
	}[gpu]
}

// nvSwitchBus is the NVSwitch chip (one of four) a GPU's link goes to.
func nvSwitchBus(link int) string {
	return [4]string{"00000000:05:00.0", "00000000:06:00.0", "00000000:07:00.0", "00000000:08:00.0"}[link%4]
}

const nvLinksPerGPU = 18

// fixedParts are the n/a reasons and NVLinks of every GPU's truth, made
// once and shared: the truth is made anew on every tick (ten a second at
// --interval 100ms; docs/benchmarks.md, "The dashboard at 100 ms, again")
// and its readers do not change it (Truth; GPUs hands out copies).
func (n *Node) fixedParts() (map[string]string, []sampler.NVLink) {
	if n.fixedNA == nil || n.fixedPCIe != n.pcieOnly {
		n.fixedPCIe, n.fixedLinks = n.pcieOnly, nil
		n.fixedNA = map[string]string{sampler.NAFan: "not supported"} // SXM boards have no fan of their own
		if n.pcieOnly {
			n.fixedNA[sampler.NANVLinkRx], n.fixedNA[sampler.NANVLinkTx] = "not supported", "not supported"
		} else {
			n.fixedLinks = make([]sampler.NVLink, nvLinksPerGPU)
			for i := range n.fixedLinks {
				n.fixedLinks[i] = sampler.NVLink{Link: i, Active: true, RemoteBus: nvSwitchBus(i)}
			}
		}
	}
	return n.fixedNA, n.fixedLinks
}

// round is math.Round out of line: inlined at each of the ~30 readings the
// simulator rounds as NVML does, it cost the binary ~1 KB
// (docs/benchmarks.md, "Recording a day: the writer's text").
//
//go:noinline
func round(x float64) float64 { return math.Round(x) }

func pct(frac float64) sampler.Metric {
	return sampler.Some(round(min(max(frac, 0), 1)*1000) / 10)
}

// report renders the GPU's truth as NVML would show it at time t.
func (g *gpuSim) report(n *Node, t float64) sampler.GPU {
	a := g.average()
	util := round(min(a.Busy, 1) * 100) // NVML reports whole percents
	memUtil := round(min(a.DRAM, 1) * 100)
	numa := numaOf(g.index)
	ecc := g.eccAt(n.now.Sub(n.start).Seconds())
	out := sampler.GPU{
		Index: g.index, UUID: n.uuids[g.index], Name: "NVIDIA H200", BusID: busID(g.index), Arch: "Hopper",
		Util: sampler.Some(util), MemUtil: sampler.Some(memUtil),
		EncUtil: sampler.Some(round(min(a.Enc, 1) * 100)), DecUtil: sampler.Some(round(min(a.Dec, 1) * 100)),
		SMActive: pct(a.SM), SMOccupancy: pct(a.Occ), TensorActive: pct(a.Tensor), DRAMActive: pct(a.DRAM),
		GRActive: pct(a.Busy), // GPM's graphics/compute engine activity: a kernel running
		NVLinkRx: sampler.Some(round(a.NVLink)), NVLinkTx: sampler.Some(round(a.NVLink * 0.98)),
		MemUsed:      sampler.Some(g.work.memUsed(t)),
		MemTotal:     sampler.Some(memTotal),
		MemReserved:  sampler.Some(memReserved),
		Temp:         sampler.Some(round(g.temp)),
		MemTemp:      sampler.Some(round(g.memTemp)),
		Energy:       sampler.Some(round(g.energy*1000) / 1000), // NVML counts mJ
		TempSlowdown: sampler.Some(tempSlowdown),
		Power:        sampler.Some(round(a.power*1000) / 1000), // NVML reports mW
		PowerLimit:   sampler.Some(g.cfg.powerLimit),
		PState:       sampler.Some(0),
		SMClock:      sampler.Some(a.clock), MemClock: sampler.Some(memClock),
		SMClockMax: sampler.Some(smClockMax), MemClockMax: sampler.Some(memClock),
		ClockEvents: sampler.ClockEvents{Mask: a.events, OK: true},
		PCIeRx:      sampler.Some(round(a.PCIeRx/1024) * 1024), // NVML reports KB/s
		PCIeTx:      sampler.Some(round(a.PCIeTx/1024) * 1024),
		PCIeGen:     sampler.Some(float64(g.pcieGen())), PCIeWidth: sampler.Some(float64(g.cfg.widthCap)),
		PCIeGenMax: sampler.Some(pcieGenMax), PCIeWidthMax: sampler.Some(pcieWidthMax),
		PCIeReplays:    sampler.Some(g.replays),
		ECCUncorrected: sampler.Some(float64(ecc.uncorrected)),
		ECCCorrected:   sampler.Some(float64(ecc.corrected)),
		RemapPending:   ecc.pending, RemapFailed: ecc.failed,
		RemappedRows: sampler.Some(float64(ecc.remapped)),
		// A row is remapped for an uncorrectable error first; the rest were
		// remapped for a high correctable-error rate.
		RemappedUncorrectable: sampler.Some(float64(min(ecc.remapped, ecc.uncorrected))),
		RemappedCorrectable:   sampler.Some(float64(ecc.remapped - min(ecc.remapped, ecc.uncorrected))),
		VGPULicense:           sampler.Some(0), // bare metal: the GPUs take no licence
		Persistence:           "on", ComputeMode: "default",
		CPUAffinity: [2]string{"0-55", "56-111"}[numa], // the cores of the GPU's socket
		NUMANode:    sampler.Some(float64(numa)),
	}
	out.NA, out.NVLinks = n.fixedParts()
	if n.pcieOnly {
		out.NVLinkRx, out.NVLinkTx = sampler.NA, sampler.NA
	}
	for _, x := range g.cfg.xids {
		at := n.start.Add(time.Duration(x.at * float64(time.Second)))
		if at.After(n.prevNow) && !at.After(n.now) {
			out.Xids = append(out.Xids, sampler.Xid{Time: at, Code: x.code})
		}
	}
	for _, p := range g.work.procs {
		if p.start > t {
			continue
		}
		out.Procs = append(out.Procs, sampler.GPUProc{
			PID: p.pid, Type: "C", MemUsed: sampler.Some(p.memAt(t)),
			SMUtil:  sampler.Some(round(util * p.share)),
			MemUtil: sampler.Some(round(memUtil * p.share)),
		})
	}
	return out
}

// eccAt is the ECC state elapsed seconds after the start: the configured counts plus what the Xids
// so far imply (48 is a double-bit error, 63 a row remap recorded as pending).
func (g *gpuSim) eccAt(elapsed float64) eccState {
	e := g.cfg.ecc
	for _, x := range g.cfg.xids {
		if x.at > elapsed {
			continue
		}
		switch x.code {
		case 48:
			e.uncorrected++
		case 63:
			e.pending = true
		}
	}
	return e
}

// cloneGPU copies g deeply: maps and slices included.
func cloneGPU(g sampler.GPU) sampler.GPU {
	g.NA = maps.Clone(g.NA)
	g.NVLinks = slices.Clone(g.NVLinks)
	g.Xids = slices.Clone(g.Xids)
	g.Procs = slices.Clone(g.Procs)
	return g
}
