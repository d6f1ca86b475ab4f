package importer

import "strings"

// When the driver does not support a GPU on the bus it leaves the card
// alone and says which release refused it (nv.c, nv_pci_probe; the
// README's Appendix A lists the GPUs each release supports):
//
//	NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2330)
//	NVRM: installed in this system is not supported by the
//	NVIDIA 550.90.07 driver release.
//
// The message may wrap anywhere. No GPU failed and none was read: a
// kernel log with no GPU message but this one is refused naming that
// cause (install a release that lists the GPU), never read as a lost GPU.
var (
	unsupportedPCIIDRE   = lazy(`\(PCI ID: ([0-9a-fA-F]{4}:[0-9a-fA-F]{4})\)`)
	unsupportedReleaseRE = lazy(`NVIDIA (\S+) driver\s+release`)
	kernStampRE          = lazy(`^.*?NVRM:\s*`)
)

func kernUnsupportedReason(ls []string) string {
	// Joined without the kernel's prefixes, the message reads as one line
	// however it wrapped.
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = strings.TrimSpace(kernStampRE.ReplaceAllString(l, ""))
	}
	text := strings.Join(parts, " ")
	at := strings.Index(text, "installed in this system is not supported by the")
	if at < 0 {
		return ""
	}
	what := "a GPU"
	if m := unsupportedPCIIDRE.FindStringSubmatch(text); m != nil {
		what = "the GPU with PCI ID " + m[1]
	}
	release := "this driver release"
	if m := unsupportedReleaseRE.FindStringSubmatch(text[at:]); m != nil {
		release = "driver release " + m[1]
	}
	return release + " does not support " + what + " (the driver's own message): it left the card alone; " +
		"install a release whose README lists this GPU, not a GPU fault"
}
