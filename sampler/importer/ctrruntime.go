package importer

import (
	"fmt"
	"strings"
)

// A container runtime that cannot hand a container its GPUs says so in its
// own words, before any NVIDIA tool runs in the container; what is missing
// is on the host, not in a GPU ([nvidia-container-toolkit]):
//
//	docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].
//	... stderr: nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown.
//	... stderr: nvidia-container-cli: detection error: open failed: /usr/lib/x86_64-linux-gnu/libnvidia-tls.so.450.36.06: no such file or directory
//	[ERROR] Command not found: nvidia-container-cli, see https://github.com/NVIDIA/libnvidia-container
//	docker: Error response from daemon: unknown or invalid runtime name: nvidia.
//	... unable to start container process: exec: "nvidia-smi": executable file not found in $PATH: unknown.
//
// The first is Docker with no device driver registered for --gpus (the
// container toolkit not installed, or not configured for this Docker); the
// next two are the toolkit's hook not finding the driver's user-space
// libraries on the host (no driver, a half-removed one); the fourth is
// enroot's hook (pyxis under Slurm) on a node without libnvidia-container;
// then Docker without the toolkit's runtime registered, and a container
// given nothing of the driver (corpus: b23-kind-pod-oci-exec-*, fixed by
// the toolkit's volume-mounts setting).
// Such lines are read as what they are and refused with that cause: they
// hold no GPU reading. The hook's own driver/library version mismatch is
// drvmismatch.go's (a fact of the node), so it is left to that reader.
var (
	ctrNoDriverRE  = lazy(`(?i)could not select device driver "[^"]*" with capabilities: \[\[gpu\]\]`)
	ctrNoRuntimeRE = lazy(`(?i)unknown or invalid runtime name: nvidia\b`)
	ctrNoSMIRE     = lazy(`(?i)exec: "nvidia-smi": executable file not found`)
	ctrNoLibraryRE = lazy(`(?i)nvidia-container-cli: (?:initialization|detection) error: (?:load library failed|open failed): (\S+?\.so[\w.]*?):? (?:cannot open shared object file|no such file or directory)`)
	ctrNoCLIRE     = lazy(`(?i)\bcommand not found: nvidia-container-cli\b`)
)

const kindCtrRuntime = "container runtime errors"

// isCtrRuntimeLine asks the patterns only of lines that name the runtime's
// words ("device driver", "nvidia-container-cli"), as the other section
// finders do.
func isCtrRuntimeLine(s string) bool {
	switch {
	case strings.Contains(s, "device driver"):
		return ctrNoDriverRE.MatchString(s)
	case strings.Contains(s, "nvidia-container-cli"):
		return !isDriverMismatchLine(s) && (ctrNoLibraryRE.MatchString(s) || ctrNoCLIRE.MatchString(s))
	case strings.Contains(s, "runtime name"):
		return ctrNoRuntimeRE.MatchString(s)
	case strings.Contains(s, `"nvidia-smi"`):
		return ctrNoSMIRE.MatchString(s)
	}
	return false
}

// parseCtrRuntime refuses the section with the cause its first line names.
func parseCtrRuntime(sec *section) *part {
	return newPart(sec).skip(ctrRuntimeWhy(sec.lines))
}

// ctrRuntimeWhy says what the runtime's line means and what to do on the
// host; nothing about a GPU is claimed.
func ctrRuntimeWhy(ls []string) string {
	for _, l := range ls {
		switch {
		case ctrNoDriverRE.MatchString(l):
			return `Docker has no NVIDIA device driver for --gpus ("could not select device driver ... [[gpu]]"): the NVIDIA ` +
				`Container Toolkit is not installed or not configured for this Docker (nvidia-ctk runtime configure ` +
				`--runtime=docker, then restart docker); it says nothing about the GPUs`
		case ctrNoLibraryRE.MatchString(l):
			lib := ctrNoLibraryRE.FindStringSubmatch(l)[1]
			return fmt.Sprintf(`the NVIDIA container hook (nvidia-container-cli) cannot find the driver's library %s on the host: `+
				`no driver, a half-removed one, or its libraries where the toolkit does not look; reinstall the driver, `+
				`then the container toolkit; it says nothing about the GPUs`, lib)
		case ctrNoRuntimeRE.MatchString(l):
			return `Docker has no runtime named nvidia (--runtime=nvidia): nvidia-ctk runtime configure --runtime=docker, then ` +
				`restart docker, or use --gpus all; it says nothing about the GPUs`
		case ctrNoSMIRE.MatchString(l):
			return `the container was started with nothing of the driver injected (no nvidia-smi in it): no --gpus or nvidia ` +
				`runtime class, NVIDIA_VISIBLE_DEVICES unset, or NVIDIA_DRIVER_CAPABILITIES without utility; where the device ` +
				`plugin passes GPUs as volume mounts (kind, nvkind), accept-nvidia-visible-devices-as-volume-mounts = true in ` +
				`/etc/nvidia-container-runtime/config.toml; it says nothing about the GPUs`
		case ctrNoCLIRE.MatchString(l):
			return `the container's NVIDIA hook cannot run nvidia-container-cli: libnvidia-container (the NVIDIA Container ` +
				`Toolkit) is not installed on this node; it says nothing about the GPUs`
		}
	}
	return otherWhy(ls)
}
