package sampler

import (
	"regexp"
	"strings"
)

// VGPU is one vGPU a vGPU host runs on a physical GPU, as `nvidia-smi vgpu`
// and `nvidia-smi vgpu -q` list it under that GPU.
type VGPU struct {
	ID       string `json:"id"`                // vGPU instance id
	Name     string `json:"name,omitempty"`    // vGPU type, e.g. "GRID A100-40C"
	VM       string `json:"vm,omitempty"`      // the VM's name
	License  string `json:"license,omitempty"` // as the host sees the guest's licence
	Util     Metric `json:"util,omitzero"`     // percent
	MemUsed  Metric `json:"mem_used,omitzero"` // bytes
	MemTotal Metric `json:"mem_total,omitzero"`
}

// vgpuProfileRE is a vGPU type's name: a board and its frame buffer in GB
// with the series letter (A apps, B PC, C compute, Q workstation), MIG-backed
// ones with the slice count: "GRID A100-40C", "NVIDIA A10-24Q",
// "GRID P4-2B4", "NVIDIA A100-3-20C". Physical boards end in "GB" or a
// form factor ("A100-SXM4-40GB"), never in one of these letters.
var vgpuProfileRE = regexp.MustCompile(`^(GRID|NVIDIA) [A-Z0-9]+-(\d+-)?\d+[ABCQ]\d?$`)

// VGPUGuest says the GPU is a vGPU seen from inside its VM: the guest's
// -q says so or the product is a vGPU type. A guest cannot see the board's
// power, clocks, links or temperature. A licence status alone does not
// tell: a pass-through VM with the same driver prints one too.
func (g *GPU) VGPUGuest() bool {
	return strings.EqualFold(g.Virtualization, "VGPU") || vgpuProfileRE.MatchString(strings.TrimSpace(g.Name))
}

// VGPUHost says the GPU serves vGPUs to VMs: it lists them, its -q says
// "Host VGPU", or a process is the host's "vgpu" (one per running VM).
// The memory and time those processes hold are the VMs' shares by design.
func (g *GPU) VGPUHost() bool {
	if len(g.VGPUs) > 0 || strings.EqualFold(g.Virtualization, "Host VGPU") {
		return true
	}
	for _, p := range g.Procs {
		if p.Host != nil && p.Host.Name == "vgpu" {
			return true
		}
	}
	return false
}
