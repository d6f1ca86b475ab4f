package importer

import "strings"

// A driver whose parts are different releases: the kernel module loaded
// at boot and the user-space libraries installed since (an update without
// a reboot, a package that pulled in another branch), or a container whose
// image carries the libraries of another release than the host's module.
// NVML says "Failed to initialize NVML: Driver/library version mismatch"
// (nvidia-smi(1)); the module logs "NVRM: API mismatch: the client has the
// version X, but / NVRM: this kernel module has the version Y" when such a
// client opens the device (the driver's nv.c). No GPU is judged either way,
// and the cause is in the line: the refusal names it and its fix instead
// of calling it a driver nvidia-smi cannot reach (docs/corpus-accuracy.md,
// batch 17).

// apiMismatchRE: the module's message, its lines joined.
var apiMismatchRE = lazy(`NVRM: API mismatch: the client has the version ([0-9.]*[0-9]).*this kernel module has the version ([0-9.]*[0-9])`)

const mismatchFix = "reboot (or reload the nvidia kernel modules) to load the installed release's module; " +
	"in a container, use the host's driver libraries (the NVIDIA container toolkit mounts them), not a driver in the image"

// nvmlMismatch is the refusal for nvidia-smi's error line l when it is
// NVML's version mismatch, "" otherwise.
func nvmlMismatch(l string) string {
	if !strings.Contains(l, "version mismatch") {
		return ""
	}
	return "the NVIDIA driver's library and its loaded kernel module are different releases (" + l + ("): " + mismatchFix)
}

// apiMismatch is the kernel's version mismatch in lines, "" if none. The
// message spans lines (the module's four NVRM lines; a journal joins them
// with #012 on one), and a chat may wrap it, so it is read from the lines
// joined as a word wrap breaks them (at a space it dropped).
func apiMismatch(lines []string) string {
	m := apiMismatchRE.FindStringSubmatch(strings.Join(lines, " "))
	if m == nil {
		return ""
	}
	return "NVRM API mismatch: the driver's libraries are " + m[1] + ", its loaded kernel module " + m[2] + (": " + mismatchFix)
}
