package diagnose

import (
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// A guest's licence status is the driver's statement: Unlicensed warns,
// Restricted is critical; Licensed says nothing. A host's vgpu -q names the VM.
func TestEvidenceVGPULicense(t *testing.T) {
	warn, restricted, ok := idleGPU(0), idleGPU(1), idleGPU(2)
	warn.License, restricted.License, ok.License = "Unlicensed", "Unlicensed (Restricted)", "Licensed (Expiry: 2025-1-1 0:0:0 GMT)"
	host := idleGPU(3)
	host.VGPUs = []sampler.VGPU{{ID: "3251634190", VM: "vm-a", License: "Unlicensed (Restricted)"}}
	fs := Evidence([]sampler.Snapshot{evSnap(0, warn, restricted, ok, host)})
	if f := requireRule(t, fs, RuleVGPUUnlicensed, 0); f.Severity != Warning {
		t.Errorf("Unlicensed: %v, want a warning", f.Severity)
	}
	if f := requireRule(t, fs, RuleVGPUUnlicensed, 1); f.Severity != Critical {
		t.Errorf("Restricted: %v, want critical", f.Severity)
	}
	forbidRule(t, fs, RuleVGPUUnlicensed, 2)
	requireRule(t, fs, RuleVGPUUnlicensed, 3)
}

// A guest sees no board: a vGPU type's power cap reason or a link below its
// maximum is the hypervisor's view, not a fault; a host's VMs hold their
// frame buffers whether busy or not.
func TestEvidenceVGPUGuestAndHostSilences(t *testing.T) {
	guest := busyGPU(0, 100, 0, 0)
	guest.Name = "GRID A100-40C"
	guest.ClockEvents = sampler.ClockEvents{OK: true, Mask: sampler.ClockSwPowerCap}
	guest.PCIeWidth, guest.PCIeWidthMax = sampler.Some(1), sampler.Some(16)
	host := idleGPU(1)
	host.MemUsed, host.MemTotal = sampler.Some(40<<30), sampler.Some(48<<30)
	host.Procs = []sampler.GPUProc{compute(11, "vgpu", 20), compute(12, "vgpu", 20)}
	fs := Evidence([]sampler.Snapshot{evSnap(0, guest, host)})
	if len(fs) != 0 {
		t.Errorf("findings %s, want none on a vGPU guest and host", evRules(fs))
	}
}
