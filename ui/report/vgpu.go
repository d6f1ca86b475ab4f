package report

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// virtual says what the input says about virtualisation: a vGPU guest (whose
// board power, clocks and links the VM cannot see) or host, and a licence.
func (l words) virtual(g *summary.GPU) string {
	var parts []string
	switch {
	case strings.EqualFold(g.Virtualization, "VGPU"):
		parts = append(parts, l.t("vgpu_guest"))
	case g.Virtualization != "" && !strings.EqualFold(g.Virtualization, "None"):
		parts = append(parts, g.Virtualization)
	}
	if g.License != "" {
		parts = append(parts, l.t("license", "Status", g.License))
	}
	return strings.Join(parts, "; ")
}

// vgpu is one line for a VM's vGPU on this GPU.
func (l words) vgpu(v sampler.VGPU) string {
	s := fmt.Sprintf("%s  %s", v.ID, orNA(v.Name))
	if v.VM != "" {
		s += "  " + l.t("vm", "VM", v.VM)
	}
	if v.Util.OK {
		s += fmt.Sprintf("  %.0f%%", v.Util.V)
	}
	if v.MemTotal.OK {
		s += "  " + units.Spaced.GiB(v.MemTotal)
	}
	if v.License != "" {
		s += "  " + l.t("license", "Status", v.License)
	}
	return s
}
