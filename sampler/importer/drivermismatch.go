package importer

import (
	"fmt"
	"strings"
)

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

// The words before each version in the module's message.
const (
	clientVersionAt = "NVRM: API mismatch: the client has the version "
	moduleVersionAt = "this kernel module has the version "
)

// versionAfter is the release number after key in l ("550.90.07" of
// "... version 550.90.07.  Please"), "" if key is not there.
func versionAfter(l, key string) string {
	i := strings.Index(l, key)
	if i < 0 {
		return ""
	}
	v := l[i+len(key):]
	n := 0
	for n < len(v) && (v[n] == '.' || v[n] >= '0' && v[n] <= '9') {
		n++
	}
	return strings.TrimRight(v[:n], ".")
}

const mismatchFix = "reboot (or reload the nvidia kernel modules) to load the installed release's module; " +
	"in a container, use the host's driver libraries (the NVIDIA container toolkit mounts them), not a driver in the image"

// nvmlMismatch is the refusal for nvidia-smi's error lines when one is
// NVML's version mismatch, "" otherwise.
func nvmlMismatch(notes []string) string {
	for _, n := range notes {
		if strings.Contains(strings.ToLower(n), "version mismatch") {
			return fmt.Sprintf("the NVIDIA driver's library and its loaded kernel module are different releases (%q): %s", n, mismatchFix)
		}
	}
	return ""
}

// apiMismatch is the kernel's version mismatch in lines, "" if none. The
// message spans lines (the module's four NVRM lines; a journal joins them
// with #012 on one), and a copy may wrap it anywhere, so it is read from
// the lines joined: as a terminal cuts them (no space lost), then as a
// word wrap does (the space it cut at dropped).
func apiMismatch(lines []string) string {
	for _, sep := range []string{"", " "} {
		all := strings.Join(lines, sep)
		client := versionAfter(all, clientVersionAt)
		if client == "" {
			continue
		}
		mod := versionAfter(all[strings.Index(all, clientVersionAt):], moduleVersionAt)
		if mod == "" {
			mod = "another release"
		}
		return fmt.Sprintf("NVRM API mismatch: the driver's libraries are %s, its loaded kernel module %s: %s", client, mod, mismatchFix)
	}
	return ""
}
