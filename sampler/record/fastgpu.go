package record

import "github.com/gpuscope/gpuscope/sampler"

// gpu reads one GPU of a line (fastentry.go).
func (s *scanner) gpu(g *sampler.GPU) {
	if !s.expect('{') {
		return
	}
	at := -1
	for n := 0; s.more(&n, '}'); {
		switch k := s.key(gpuKeys, &at); k {
		case "index":
			g.Index = s.int()
		case "uuid":
			g.UUID = s.str()
		case "name":
			g.Name = s.str()
		case "bus_id":
			g.BusID = s.str()
		case "arch":
			g.Arch = s.str()
		case "lost":
			g.Lost = s.boolean()
		case "pod":
			s.pod(&g.Pod)
		case "job":
			g.Job = s.str()
		case "owner":
			g.Owner = s.str()
		case "clock_events":
			s.clockEvents(&g.ClockEvents)
		case "remap_pending":
			g.RemapPending = s.boolean()
		case "remap_failed":
			g.RemapFailed = s.boolean()
		case "inforom_corrupt":
			g.InfoROMCorrupt = s.boolean()
		case "driver_oops":
			g.DriverOops = s.boolean()
		case "persistence":
			g.Persistence = s.str()
		case "compute_mode":
			g.ComputeMode = s.str()
		case "mig":
			g.MIG = s.boolean()
		case "nvlinks":
			s.other(&g.NVLinks)
		case "cpu_affinity":
			g.CPUAffinity = s.str()
		case "mig_devices":
			s.other(&g.MIGDevices)
		case "fabric_state":
			g.FabricState = s.str()
		case "fabric_status":
			g.FabricStatus = s.str()
		case "fabric_health":
			g.FabricHealth = s.str()
		case "fabric_health_why":
			g.FabricHealthWhy = s.str()
		case "virtualization":
			g.Virtualization = s.str()
		case "license":
			g.License = s.str()
		case "vgpus":
			s.other(&g.VGPUs)
		case "xids":
			s.other(&g.Xids)
		case "procs":
			g.Procs = s.gpuProcs()
		case "na":
			g.NA = s.strings()
		default:
			if m := gpuMetric(g, k); m != nil {
				*m = s.metric()
			} else {
				s.bad = true
			}
		}
	}
}

// gpuMetric is the reading a GPU's member k holds, nil for another member.
func gpuMetric(g *sampler.GPU, k string) *sampler.Metric {
	switch k {
	case "util":
		return &g.Util
	case "mem_util":
		return &g.MemUtil
	case "enc_util":
		return &g.EncUtil
	case "dec_util":
		return &g.DecUtil
	case "sm_active":
		return &g.SMActive
	case "sm_occupancy":
		return &g.SMOccupancy
	case "tensor_active":
		return &g.TensorActive
	case "dram_active":
		return &g.DRAMActive
	case "nvlink_rx":
		return &g.NVLinkRx
	case "nvlink_tx":
		return &g.NVLinkTx
	case "gr_active":
		return &g.GRActive
	case "mem_used":
		return &g.MemUsed
	case "mem_total":
		return &g.MemTotal
	case "mem_reserved":
		return &g.MemReserved
	case "temp":
		return &g.Temp
	case "mem_temp":
		return &g.MemTemp
	case "temp_slowdown":
		return &g.TempSlowdown
	case "temp_max_op":
		return &g.TempMaxOp
	case "temp_target":
		return &g.TempTarget
	case "temp_shutdown":
		return &g.TempShutdown
	case "power":
		return &g.Power
	case "power_limit":
		return &g.PowerLimit
	case "energy":
		return &g.Energy
	case "fan":
		return &g.Fan
	case "pstate":
		return &g.PState
	case "sm_clock":
		return &g.SMClock
	case "mem_clock":
		return &g.MemClock
	case "sm_clock_max":
		return &g.SMClockMax
	case "mem_clock_max":
		return &g.MemClockMax
	case "pcie_rx":
		return &g.PCIeRx
	case "pcie_tx":
		return &g.PCIeTx
	case "pcie_gen":
		return &g.PCIeGen
	case "pcie_width":
		return &g.PCIeWidth
	case "pcie_gen_max":
		return &g.PCIeGenMax
	case "pcie_width_max":
		return &g.PCIeWidthMax
	case "pcie_replays":
		return &g.PCIeReplays
	case "ecc_uncorrected":
		return &g.ECCUncorrected
	case "ecc_corrected":
		return &g.ECCCorrected
	case "remapped_rows":
		return &g.RemappedRows
	case "remapped_correctable":
		return &g.RemappedCorrectable
	case "remapped_uncorrectable":
		return &g.RemappedUncorrectable
	case "vgpu_license":
		return &g.VGPULicense
	case "numa_node":
		return &g.NUMANode
	}
	return nil
}
