package promexport

import (
	"sort"
	"strconv"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// hostMetric is one node-wide series (label: hostname).
type hostMetric struct {
	fam   *family
	value func(h *sampler.Host) sampler.Metric
	scale float64
}

// hostMetrics are the host figures the rules read (CPU, iowait, disk reads
// for input_starved and io_bound) and the rest of the host pane.
func hostMetrics() []hostMetric {
	h := func(name, help string, scale float64, v func(h *sampler.Host) sampler.Metric) hostMetric {
		return hostMetric{newFamily("gpuscope_host_"+name, help, false, "hostname"), v, scale}
	}
	return []hostMetric{
		h("cpu_usage_ratio", "Share of all CPU cores busy, 0-1.", 0.01, func(h *sampler.Host) sampler.Metric { return h.CPU }),
		h("cpu_iowait_ratio", "Share of CPU time waiting on I/O, 0-1.", 0.01, func(h *sampler.Host) sampler.Metric { return h.IOWait }),
		h("load1", "Load average over 1 minute.", 1, func(h *sampler.Host) sampler.Metric { return h.Load1 }),
		h("memory_used_bytes", "Host memory in use.", 1, func(h *sampler.Host) sampler.Metric { return h.MemUsed }),
		h("memory_total_bytes", "Host memory size.", 1, func(h *sampler.Host) sampler.Metric { return h.MemTotal }),
		h("swap_used_bytes", "Swap in use.", 1, func(h *sampler.Host) sampler.Metric { return h.SwapUsed }),
		h("disk_read_bytes_per_second", "Disk read throughput, all disks.", 1, func(h *sampler.Host) sampler.Metric { return h.DiskRead }),
		h("disk_write_bytes_per_second", "Disk write throughput, all disks.", 1, func(h *sampler.Host) sampler.Metric { return h.DiskWrite }),
		h("network_receive_bytes_per_second", "Network receive throughput, physical interfaces.", 1, func(h *sampler.Host) sampler.Metric { return h.NetRx }),
		h("network_transmit_bytes_per_second", "Network transmit throughput, physical interfaces.", 1, func(h *sampler.Host) sampler.Metric { return h.NetTx }),
	}
}

func (o *ownFamilies) collect(sc *scrape, st *State, snap *sampler.Snapshot, findings []diagnose.Finding, opts Options) {
	host := snap.Node.Hostname
	sc.of(o.build).add(1, opts.Version)
	sc.of(o.nodeInfo).add(1, host, snap.Node.Driver, snap.Node.CUDA, snap.Node.Source)
	for i := range snap.GPUs {
		g := &snap.GPUs[i]
		labels := newLabelSet(host, itoa(g.Index), g.UUID)
		sc.of(o.gpuInfo).add(1, host, labels.values[1], g.UUID, g.Name, g.BusID, g.Arch)
		sc.of(o.gpuLost).addSet(b2f(g.Lost), labels)
		if o.podInfo != nil {
			if p := g.Pod; p != (sampler.Pod{}) {
				sc.of(o.podInfo).add(1, host, labels.values[1], g.UUID, p.Namespace, p.Name, p.Container)
			}
		}
		if h, ok := diagnose.HolderOf(g); ok {
			sc.of(o.jobInfo).add(1, host, labels.values[1], g.UUID, h.Kind, h.ID, h.User)
		}
		addGPU(sc, o.gpu, g, st.xidsOf(g), labels)
		if g.ClockEvents.OK && !g.Lost {
			for _, e := range sampler.ClockEventReasons() {
				sc.of(o.clockEvent).add(b2f(g.ClockEvents.Mask&e.Bit != 0),
					host, labels.values[1], g.UUID, e.Name)
			}
		}
		o.collectProcs(sc, snap, g, labels.values)
	}
	if h := snap.Host; h != nil {
		labels := newLabelSet(host)
		for _, m := range o.host {
			if v := m.value(h); v.OK {
				sc.of(m.fam).addSet(v.V*m.scale, labels)
			}
		}
	}
	times := st.jobTimes()
	keys := make([]diagnose.HolderKey, 0, len(times))
	for k := range times {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { // sort.Slice: no generic instantiation in the binary
		a, b := keys[i], keys[j]
		return a.Kind+"\x00"+a.Job+"\x00"+a.User < b.Kind+"\x00"+b.Job+"\x00"+b.User
	})
	for _, k := range keys { // in order: a scrape is the same bytes for the same state
		t := times[k]
		sc.of(o.jobHeld).add(t.Held, host, k.Kind, k.Job, k.User)
		sc.of(o.jobUsed).add(t.Used, host, k.Kind, k.Job, k.User)
	}
	for _, f := range findings {
		labels := newLabelSet(host, f.Rule, f.Severity.String(), itoa(f.GPU), itoa(f.PID))
		sc.of(o.finding).addSet(1, labels)
		if !f.Since.IsZero() {
			sc.of(o.findingSince).addSet(float64(f.Since.UnixMilli())/1e3, labels)
		}
	}
}

// collectProcs emits the per-process series of one GPU (and its MIG
// instances' processes, attributed to the parent GPU).
func (o *ownFamilies) collectProcs(sc *scrape, snap *sampler.Snapshot, g *sampler.GPU, gpuLabels []string) {
	emit := func(p *sampler.GPUProc) {
		values := append(gpuLabels[:3:3], strconv.Itoa(p.PID), "", "", "", "", "", "", "", "")
		if hp := p.Host; hp != nil {
			values[4], values[5], values[6], values[7] = hp.Name, hp.User, hp.Container, hp.PodUID
			values[8], values[9], values[10] = hp.Pod.Namespace, hp.Pod.Name, hp.Pod.Container
			if ppid := diagnose.JobParent(snap.Host, hp); ppid > 0 {
				values[11] = strconv.Itoa(ppid)
			}
		}
		labels := newLabelSet(values...)
		if p.MemUsed.OK {
			sc.of(o.procMem).addSet(p.MemUsed.V, labels)
		}
		if p.SMUtil.OK {
			sc.of(o.procSM).addSet(p.SMUtil.V/100, labels)
		}
		hp := p.Host
		if hp == nil {
			return
		}
		if hp.CPU.OK {
			sc.of(o.procCPU).addSet(hp.CPU.V/100, labels)
		}
		var cpu float64
		var blocked int
		for _, pid := range hp.Children {
			if c := snap.Host.Procs[pid]; c != nil {
				cpu += c.CPU.Or(0)
				if c.State == "D" {
					blocked++
				}
			}
		}
		sc.of(o.procWorkers).addSet(float64(len(hp.Children)), labels)
		sc.of(o.procWorkersCPU).addSet(cpu/100, labels)
		sc.of(o.procBlock).addSet(float64(blocked), labels)
	}
	for i := range g.Procs {
		emit(&g.Procs[i])
	}
	for i := range g.MIGDevices {
		for j := range g.MIGDevices[i].Procs {
			emit(&g.MIGDevices[i].Procs[j])
		}
	}
}
