package promsource

import (
	"cmp"
	"sort"
	"strconv"

	"github.com/gpuscope/gpuscope/sampler"
)

// procAt is one GPU process at one step, from gpuscope's process series.
type procAt struct {
	gp                    sampler.GPUProc
	host                  sampler.Proc
	workers, blocked      int
	workersCPU            float64
	hasHost, hasWorkerCPU bool
}

// procField is one gpuscope_process_* series and where its value goes.
type procField struct {
	name string
	set  func(p *procAt, v float64)
}

var procFields = []procField{
	{"gpuscope_process_gpu_memory_bytes", func(p *procAt, v float64) { p.gp.MemUsed = sampler.Some(v) }},
	{"gpuscope_process_sm_utilization_ratio", func(p *procAt, v float64) { p.gp.SMUtil = sampler.Some(v * 100) }},
	{"gpuscope_process_cpu_usage_ratio", func(p *procAt, v float64) { p.host.CPU, p.hasHost = sampler.Some(v*100), true }},
	{"gpuscope_process_workers", func(p *procAt, v float64) { p.workers = int(v) }},
	{"gpuscope_process_workers_cpu_usage_ratio", func(p *procAt, v float64) { p.workersCPU, p.hasWorkerCPU = v*100, true }},
	{"gpuscope_process_workers_blocked", func(p *procAt, v float64) { p.blocked = int(v) }},
}

func (h *historyBuilder) procSeries(pf procField, ss *sampleStream) {
	gpu, ok := gpuOf(ss.Metric)
	pid, err := strconv.Atoi(string(ss.Metric["pid"]))
	if !ok || err != nil {
		return
	}
	for _, smp := range ss.Values {
		d := h.at(ss.Metric, smp.Timestamp)
		p := d.procs[procKey{gpu, pid}]
		if p == nil {
			m := ss.Metric
			ns, pod := podOf(m)
			ppid, _ := strconv.Atoi(m["job_pid"]) // the rank's job parent, as the node grouped it
			p = &procAt{gp: sampler.GPUProc{PID: pid, Type: "C"},
				host: sampler.Proc{PID: pid, PPID: ppid, Name: string(m["command"]), User: string(m["user"]),
					Container: string(m["container"]), PodUID: string(m["pod_uid"]),
					Pod: sampler.Pod{Namespace: ns, Name: pod, Container: string(m["container_name"])}}}
			d.procs[procKey{gpu, pid}] = p
		}
		pf.set(p, float64(smp.Value))
	}
}

// hostField is one gpuscope_host_* series and the Host field it fills.
type hostField struct {
	name  string
	scale float64
	field func(h *sampler.Host) *sampler.Metric
}

var hostFields = []hostField{
	{"gpuscope_host_cpu_usage_ratio", 100, func(h *sampler.Host) *sampler.Metric { return &h.CPU }},
	{"gpuscope_host_cpu_iowait_ratio", 100, func(h *sampler.Host) *sampler.Metric { return &h.IOWait }},
	{"gpuscope_host_load1", 1, func(h *sampler.Host) *sampler.Metric { return &h.Load1 }},
	{"gpuscope_host_memory_used_bytes", 1, func(h *sampler.Host) *sampler.Metric { return &h.MemUsed }},
	{"gpuscope_host_memory_total_bytes", 1, func(h *sampler.Host) *sampler.Metric { return &h.MemTotal }},
	{"gpuscope_host_swap_used_bytes", 1, func(h *sampler.Host) *sampler.Metric { return &h.SwapUsed }},
	{"gpuscope_host_disk_read_bytes_per_second", 1, func(h *sampler.Host) *sampler.Metric { return &h.DiskRead }},
	{"gpuscope_host_disk_write_bytes_per_second", 1, func(h *sampler.Host) *sampler.Metric { return &h.DiskWrite }},
	{"gpuscope_host_network_receive_bytes_per_second", 1, func(h *sampler.Host) *sampler.Metric { return &h.NetRx }},
	{"gpuscope_host_network_transmit_bytes_per_second", 1, func(h *sampler.Host) *sampler.Metric { return &h.NetTx }},
}

func (h *historyBuilder) hostSeries(hf hostField, ss *sampleStream) {
	for _, smp := range ss.Values {
		d := h.at(ss.Metric, smp.Timestamp)
		if d.host == nil {
			d.host = &sampler.Host{}
		}
		*hf.field(d.host) = sampler.Some(float64(smp.Value) * hf.scale)
	}
}

// attachProcs puts each process on its GPU and into Host.Procs. Workers
// are exported as a count, their CPU summed and how many wait on I/O, so
// they come back as that many children sharing the CPU evenly, the blocked
// ones in state D: what the input and I/O rules read.
func attachProcs(snap *sampler.Snapshot, d *stepData) {
	if len(d.procs) == 0 {
		return
	}
	if snap.Host == nil {
		snap.Host = &sampler.Host{}
	}
	if snap.Host.Procs == nil {
		snap.Host.Procs = map[int]*sampler.Proc{}
	}
	byGPU := map[int]int{}
	for i := range snap.GPUs {
		byGPU[snap.GPUs[i].Index] = i
	}
	keys := make([]procKey, 0, len(d.procs))
	for k := range d.procs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return cmp.Or(keys[i].gpu-keys[j].gpu, keys[i].pid-keys[j].pid) < 0 })
	nextChild := -1 // synthetic children get negative PIDs: never a real process
	for _, key := range keys {
		p := d.procs[key]
		gi, ok := byGPU[key.gpu]
		if !ok {
			continue
		}
		g := &snap.GPUs[gi]
		g.Procs = append(g.Procs, p.gp)
		if !p.hasHost {
			continue
		}
		hp := p.host
		if existing := snap.Host.Procs[hp.PID]; existing != nil {
			continue // the same process on several GPUs
		}
		for w := range p.workers {
			child := &sampler.Proc{PID: nextChild, PPID: hp.PID, Name: hp.Name + " worker", User: hp.User, State: "S"}
			if p.hasWorkerCPU {
				child.CPU = sampler.Some(p.workersCPU / float64(p.workers))
			}
			if w < p.blocked {
				child.State = "D"
			}
			snap.Host.Procs[child.PID] = child
			hp.Children = append(hp.Children, child.PID)
			nextChild--
		}
		snap.Host.Procs[hp.PID] = &hp
	}
}
