package importer

import (
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// `nvidia-smi vgpu -q` on a vGPU host: under each "GPU <bus id>" heading,
// "Active vGPUs : n" then one "vGPU ID : <id>" block per vGPU whose keys
// ("VM Name", "vGPU Name", "FB Memory Usage", "Utilization", a "PCI / Bus
// Id" of the VM's virtual slot) describe that VM's device. They must not
// land on the physical GPU: its bus id would become the VM's 00:00.0 and
// its memory the vGPU's frame buffer.

// qVGPU is the vGPU block being read and the indent of its "vGPU ID" line.
type qVGPU struct {
	v      sampler.VGPU
	indent int
}

// vgpuLine routes a "key : value" line inside a vGPU block to that vGPU;
// it reports whether it took the line.
func (q *qState) vgpuLine(key, val string, indent, no int) bool {
	if q.vgpu != nil && indent <= q.vgpu.indent {
		q.endVGPU()
	}
	if key == "vgpu id" {
		q.endProc()
		q.vgpu = &qVGPU{v: sampler.VGPU{ID: val}, indent: indent}
		q.p.where(q.gpu.Index, "vgpus", no)
		return true
	}
	if q.vgpu == nil {
		return false
	}
	var rel []string // headings inside the vGPU block
	for _, h := range q.stack {
		if h.indent > q.vgpu.indent {
			rel = append(rel, h.name)
		}
	}
	v := &q.vgpu.v
	switch strings.Join(append(rel, key), "/") {
	case "vm name":
		v.VM = val
	case "vgpu name":
		v.Name = val
	case "license status":
		v.License = val
	case "utilization/gpu":
		v.Util = qNumber(val, plain)
	case "fb memory usage/used":
		v.MemUsed = qNumber(val, memory)
	case "fb memory usage/total":
		v.MemTotal = qNumber(val, memory)
	}
	return true
}

// qNumber is a -q value as a metric, absent when it does not parse.
func qNumber(val string, k kind) sampler.Metric {
	v, err := parseValue(strings.Trim(val, "[]"), k, "")
	if err != nil {
		return sampler.Metric{}
	}
	return v
}
