package diagnose

import (
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// hintVGPULicense is the first fix of vgpu_unlicensed ([vgpu-licensing]).
var hintVGPULicense = fix{"vgpu_license", "License the VM: nvidia-smi -q | grep -A2 'Licensed Product' shows the status; check the client " +
	"configuration token and gridd.conf (FeatureType) against the license server, then restart nvidia-gridd " +
	"(Windows: the NVIDIA Display Container service) and wait for Licensed ([vgpu-licensing])"}

// vgpuLicense: a vGPU or GRID guest whose -q prints "Unlicensed". NVIDIA's
// driver runs an unlicensed vGPU at full capability only at first, then
// restricts it (frame rate capped, CUDA disabled) until a licence is
// acquired ([vgpu-licensing]); "(Restricted)" says the restrictions are on
// now. A host's vgpu -q names the same status per VM.
func (e *evCtx) vgpuLicense(g *sampler.GPU) {
	var ev Text
	var uses []Use
	restricted := false
	check := func(status string, who Msg) {
		l := strings.ToLower(strings.TrimSpace(status))
		if !strings.HasPrefix(l, "unlicensed") {
			return
		}
		restricted = restricted || strings.Contains(l, "restricted")
		ev = append(ev, say("evidence.vgpu_license", "{{.Who}}: License Status {{.Status}}", "Who", who, "Status", status))
		uses = append(uses, Use{g.Index, "license"})
	}
	check(g.License, say("evidence.vgpu_guest", "this VM's GPU {{.GPU}}", "GPU", g.Index))
	for _, v := range g.VGPUs {
		check(v.License, say("evidence.vgpu_vm", "vGPU {{.ID}} ({{.VM}})", "ID", v.ID, "VM", orNA(v.VM)))
	}
	if len(ev) == 0 {
		return
	}
	sev, title := Warning, say("evidence.vgpu_unlicensed_title", "GPU {{.GPU}}: vGPU not licensed; the driver will restrict it", "GPU", g.Index)
	if restricted {
		sev, title = Critical, say("evidence.vgpu_restricted_title", "GPU {{.GPU}}: vGPU unlicensed and restricted now (CUDA disabled, frame rate capped)", "GPU", g.Index)
	}
	e.add(RuleVGPUUnlicensed, sev, g.Index, title, ev, hintVGPULicense,
		e.oneShot(say("evidence.vgpu_license_fact", "the licence status is the driver's own statement, not an inference")), uses...)
}
