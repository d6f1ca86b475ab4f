package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// hintDriverOops: a driver that crashes as it brings a GPU up is most
// often one the running kernel was not built for; nothing on the GPU's
// side changes that, and the crashed module stays unusable until a reboot.
var hintDriverOops = fix{"driver_oops", "no GPU of this machine works until it reboots; a crash that comes back at the next " +
	"load usually means a driver that does not fit the running kernel (a kernel update it was not rebuilt for): boot the " +
	"previous kernel or install the driver release for this kernel (dkms status), then reboot"}

// hintGSPFirmware: the open kernel module (and any module with GSP on)
// loads its GSP firmware from /lib/firmware/nvidia/<version>/ at init; a
// driver container or vGPU Manager pod without that directory fails every
// GPU it brings up (docs/references.md [gpu-operator-release-notes];
// docs/playbook/xid_error.md, Caveats).
var hintGSPFirmware = fix{"gsp_firmware", "install the GSP firmware files of this driver release (/lib/firmware/nvidia/<driver version>/gsp_*.bin, " +
	"shipped with the driver package); in a driver container or vGPU Manager pod, mount /lib/firmware from the host; then reload the driver. " +
	"The GPU itself is not at fault"}

// driverOops: the kernel log shows an oops inside the NVIDIA driver
// (sampler.GPU.DriverOops; the read line names the function). It is the
// rule an unreachable GPU gets, xid_error, critical.
func (e *evCtx) driverOops(g *sampler.GPU) {
	if g.DriverOops {
		e.add(RuleXidError, Critical, g.Index, say("evidence.oops_title", "GPU {{.GPU}} unusable: the NVIDIA kernel module crashed", "GPU", g.Index),
			Text{say("evidence.oops", "a kernel oops in the driver's own code")}, hintDriverOops, nil, Use{g.Index, "oops"})
	}
}
