package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// hintDriverOops: a driver that crashes as it brings a GPU up is most
// often one the running kernel was not built for; nothing on the GPU's
// side changes that, and the crashed module stays unusable until a reboot.
var hintDriverOops = fix{"driver_oops", "no GPU of this machine works until it reboots; a crash that comes back at the next " +
	"load usually means a driver that does not fit the running kernel (a kernel update it was not rebuilt for): boot the " +
	"previous kernel or install the driver release for this kernel (dkms status), then reboot"}

// driverOops: the kernel log shows an oops inside the NVIDIA driver
// (sampler.GPU.DriverOops; the read line names the function). It is the
// rule an unreachable GPU gets, xid_error, critical.
func (e *evCtx) driverOops(g *sampler.GPU) {
	if g.DriverOops {
		e.add(RuleXidError, Critical, g.Index, say("evidence.oops_title", "GPU {{.GPU}} unusable: the NVIDIA kernel module crashed", "GPU", g.Index),
			Text{say("evidence.oops", "a kernel oops in the driver's own code")}, hintDriverOops, nil, Use{g.Index, "oops"})
	}
}
