package record

import (
	"bytes"
	"slices"
	"strconv"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
)

// lineEncoder writes a line as jsonv1's Encoder (HTML unescaped) writes
// it, byte for byte, without reflection: json/v2's reflection (its field
// walk and a MarshalJSON call, allocated and re-validated, per reading)
// was ~20 % of recording a day (docs/benchmarks.md, "Recording a day: the
// encoder and the findings"). The fields are in the structs' order, as
// the fast reader (fastentry.go) reads them. What a day rarely holds
// (MIG devices, vGPUs, the topology, the node's checks, non-ASCII text,
// odd numbers and times) goes through the kept jsonv1 encoder, so any
// value encodes as before; TestLineEncoderAgrees holds the two equal on
// every field of random entries.
type lineEncoder struct {
	b   []byte
	err error // the first fallback's error: the line does not encode
	fb  bytes.Buffer
	fe  *jsonv1.Encoder
}

// any appends v as the jsonv1 encoder writes it.
func (e *lineEncoder) any(v any) {
	if e.err != nil {
		return
	}
	if e.fe == nil {
		e.fe = jsonv1.NewEncoder(&e.fb)
		e.fe.SetEscapeHTML(false)
	}
	e.fb.Reset()
	if err := e.fe.Encode(v); err != nil {
		e.err, e.fe = err, nil // a fresh encoder for the next line
		return
	}
	e.b = append(e.b, bytes.TrimSuffix(e.fb.Bytes(), []byte{'\n'})...)
}

// entry encodes l, newline included, into e.b (reset first).
func (e *lineEncoder) entry(l *wireEntry) ([]byte, error) {
	e.b, e.err = e.b[:0], nil
	e.b = append(e.b, `{"time":`...)
	e.time(l.Time)
	e.b = append(e.b, `,"seq":`...)
	e.b = strconv.AppendUint(e.b, l.Seq, 10)
	e.b = append(e.b, `,"node":`...)
	e.node(&l.Node)
	e.b = append(e.b, `,"gpus":`...)
	if l.GPUs == nil {
		e.b = append(e.b, "null"...)
	} else {
		for i := range l.GPUs {
			e.sep(i)
			e.gpu(&l.GPUs[i])
		}
		e.end(len(l.GPUs))
	}
	if l.Host != nil {
		e.b = append(e.b, `,"host":`...)
		e.host(l.Host)
	}
	if l.Topology != nil {
		e.b = append(e.b, `,"topology":`...)
		e.any(l.Topology)
	}
	if len(l.Problems) > 0 {
		e.b = append(e.b, `,"problems":`...)
		e.strings(l.Problems)
	}
	if len(l.Findings) > 0 {
		e.b = append(e.b, `,"findings":`...)
		e.any(l.Findings) // validated and compacted as jsonv1 does
	}
	e.ints(`,"same_gpus":`, l.SameGPUs)
	e.ints(`,"steady_gpus":`, l.SteadyGPUs)
	e.ints(`,"same_procs":`, l.SameProcs)
	e.ints(`,"same_links":`, l.SameLinks)
	if l.SameTopology {
		e.b = append(e.b, `,"same_topology":true`...)
	}
	e.ints(`,"same_findings":`, l.SameFindings)
	e.ints(`,"seen_findings":`, l.SeenFindings)
	e.b = append(e.b, "}\n"...)
	return e.b, e.err
}

func (e *lineEncoder) node(n *sampler.Node) {
	if n.GPUError != nil || n.Diag != nil || n.SliceOOM != nil {
		e.any(n)
		return
	}
	e.b = append(e.b, `{"hostname":`...)
	e.str(n.Hostname)
	e.field(`,"driver":`, n.Driver)
	e.field(`,"cuda":`, n.CUDA)
	e.field(`,"nvml":`, n.NVML)
	e.b = append(e.b, `,"source":`...)
	e.str(n.Source)
	e.field(`,"cuda_error":`, n.CUDAError)
	e.field(`,"container_error":`, n.ContainerError)
	e.field(`,"fabric_error":`, n.FabricError)
	e.field(`,"procs_from":`, n.ProcsFrom)
	e.b = append(e.b, '}')
}

func (e *lineEncoder) gpu(g *sampler.GPU) {
	e.b = append(e.b, `{"index":`...)
	e.b = strconv.AppendInt(e.b, int64(g.Index), 10)
	e.field(`,"uuid":`, g.UUID)
	e.field(`,"name":`, g.Name)
	e.field(`,"bus_id":`, g.BusID)
	e.field(`,"arch":`, g.Arch)
	e.flag(`,"lost":true`, g.Lost)
	e.pod(g.Pod)
	e.field(`,"job":`, g.Job)
	e.field(`,"owner":`, g.Owner)
	e.metric(`,"util":`, g.Util)
	e.metric(`,"mem_util":`, g.MemUtil)
	e.metric(`,"enc_util":`, g.EncUtil)
	e.metric(`,"dec_util":`, g.DecUtil)
	e.metric(`,"sm_active":`, g.SMActive)
	e.metric(`,"sm_occupancy":`, g.SMOccupancy)
	e.metric(`,"tensor_active":`, g.TensorActive)
	e.metric(`,"dram_active":`, g.DRAMActive)
	e.metric(`,"nvlink_rx":`, g.NVLinkRx)
	e.metric(`,"nvlink_tx":`, g.NVLinkTx)
	e.metric(`,"gr_active":`, g.GRActive)
	e.metric(`,"mem_used":`, g.MemUsed)
	e.metric(`,"mem_total":`, g.MemTotal)
	e.metric(`,"mem_reserved":`, g.MemReserved)
	e.metric(`,"temp":`, g.Temp)
	e.metric(`,"mem_temp":`, g.MemTemp)
	e.metric(`,"temp_slowdown":`, g.TempSlowdown)
	e.metric(`,"temp_max_op":`, g.TempMaxOp)
	e.metric(`,"temp_target":`, g.TempTarget)
	e.metric(`,"temp_shutdown":`, g.TempShutdown)
	e.metric(`,"power":`, g.Power)
	e.metric(`,"power_limit":`, g.PowerLimit)
	e.metric(`,"energy":`, g.Energy)
	e.metric(`,"fan":`, g.Fan)
	e.metric(`,"pstate":`, g.PState)
	e.metric(`,"sm_clock":`, g.SMClock)
	e.metric(`,"mem_clock":`, g.MemClock)
	e.metric(`,"sm_clock_max":`, g.SMClockMax)
	e.metric(`,"mem_clock_max":`, g.MemClockMax)
	if g.ClockEvents.OK {
		e.b = append(e.b, `,"clock_events":`...)
		e.any(g.ClockEvents)
	}
	e.metric(`,"pcie_rx":`, g.PCIeRx)
	e.metric(`,"pcie_tx":`, g.PCIeTx)
	e.metric(`,"pcie_gen":`, g.PCIeGen)
	e.metric(`,"pcie_width":`, g.PCIeWidth)
	e.metric(`,"pcie_gen_max":`, g.PCIeGenMax)
	e.metric(`,"pcie_width_max":`, g.PCIeWidthMax)
	e.metric(`,"pcie_replays":`, g.PCIeReplays)
	e.metric(`,"ecc_uncorrected":`, g.ECCUncorrected)
	e.metric(`,"ecc_corrected":`, g.ECCCorrected)
	e.flag(`,"remap_pending":true`, g.RemapPending)
	e.flag(`,"remap_failed":true`, g.RemapFailed)
	e.flag(`,"inforom_corrupt":true`, g.InfoROMCorrupt)
	e.metric(`,"remapped_rows":`, g.RemappedRows)
	e.metric(`,"remapped_correctable":`, g.RemappedCorrectable)
	e.metric(`,"remapped_uncorrectable":`, g.RemappedUncorrectable)
	e.metric(`,"vgpu_license":`, g.VGPULicense)
	e.field(`,"persistence":`, g.Persistence)
	e.field(`,"compute_mode":`, g.ComputeMode)
	e.flag(`,"mig":true`, g.MIG)
	if len(g.NVLinks) > 0 {
		e.b = append(e.b, `,"nvlinks":`...)
		for i, l := range g.NVLinks {
			e.sep(i)
			e.b = append(e.b, `{"link":`...)
			e.b = strconv.AppendInt(e.b, int64(l.Link), 10)
			e.b = strconv.AppendBool(append(e.b, `,"active":`...), l.Active)
			e.field(`,"remote_bus":`, l.RemoteBus)
			e.count(`,"replay":`, l.Replay)
			e.count(`,"recovery":`, l.Recovery)
			e.count(`,"crc":`, l.CRC)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	e.field(`,"cpu_affinity":`, g.CPUAffinity)
	e.metric(`,"numa_node":`, g.NUMANode)
	if len(g.MIGDevices) > 0 {
		e.b = append(e.b, `,"mig_devices":`...)
		e.any(g.MIGDevices)
	}
	e.field(`,"fabric_state":`, g.FabricState)
	e.field(`,"fabric_status":`, g.FabricStatus)
	e.field(`,"virtualization":`, g.Virtualization)
	e.field(`,"license":`, g.License)
	if len(g.VGPUs) > 0 {
		e.b = append(e.b, `,"vgpus":`...)
		e.any(g.VGPUs)
	}
	if len(g.Xids) > 0 {
		e.b = append(e.b, `,"xids":`...)
		for i, x := range g.Xids {
			e.sep(i)
			e.b = append(e.b, `{"time":`...)
			e.time(x.Time)
			e.b = strconv.AppendUint(append(e.b, `,"code":`...), x.Code, 10)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(g.Procs) > 0 {
		e.b = append(e.b, `,"procs":`...)
		for i := range g.Procs {
			p := &g.Procs[i]
			e.sep(i)
			e.b = append(e.b, `{"pid":`...)
			e.b = strconv.AppendInt(e.b, int64(p.PID), 10)
			e.b = append(e.b, `,"type":`...)
			e.str(p.Type)
			e.metric(`,"mem_used":`, p.MemUsed)
			e.metric(`,"sm_util":`, p.SMUtil)
			e.metric(`,"mem_util":`, p.MemUtil)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(g.NA) > 0 {
		e.b = append(e.b, `,"na":`...)
		keys := make([]string, 0, len(g.NA))
		for k := range g.NA {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			e.b = append(e.b, "{,"[min(i, 1)])
			e.str(k)
			e.b = append(e.b, ':')
			e.str(g.NA[k])
		}
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, '}')
}
