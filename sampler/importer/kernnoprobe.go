package importer

import "strings"

// The driver's module init counts the NVIDIA GPUs on the PCI bus and the
// ones its probe was called for; the others were bound first by another
// driver (nv.c, nvidia_init_module), and it says so in its own words:
//
//	NVRM: The NVIDIA probe routine was not called for 3 device(s).
//	NVRM: This can occur when a driver such as:
//	NVRM: nouveau, rivafb, nvidiafb or rivatv
//	NVRM: was loaded and obtained ownership of the NVIDIA device(s).
//
// (drivers before nouveau's time: "such as rivafb, nvidiafb or rivatv was
// loaded"). nvidia-smi then cannot reach the driver, yet no GPU failed:
// nouveau or a framebuffer driver holds them (blacklist it and reboot), or
// vfio-pci on a passthrough host, where that is meant. A kernel log with
// no GPU message but this one is refused naming that cause, never read as
// a lost GPU (docs/corpus-accuracy.md, batch 21).
func kernNoProbeReason(ls []string) string {
	for _, l := range ls {
		_, n, ok := strings.Cut(l, "probe routine was not called for ")
		if !ok {
			continue
		}
		n, _, _ = strings.Cut(n, " device")
		return "the NVIDIA driver's probe was not called for " + n + " of the node's GPUs: another driver was bound " +
			"first (nouveau or a framebuffer driver: blacklist it and reboot; vfio-pci on a passthrough host), not a GPU fault"
	}
	return ""
}
