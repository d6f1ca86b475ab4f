package importer

import (
	"fmt"
	"strings"
)

// smiFailure is the refusal of nvidia-smi's line for a machine whose
// driver it could not use. The line proves what failed, never which GPU,
// and the same line comes from a machine without an NVIDIA GPU (corpus:
// b13-smi-failed-no-driver-cpu-instance-*), so it is no finding: the
// refusal names the causes the corpus's threads confirm for that line and
// the commands that tell them apart.
func smiFailure(line string) string {
	l := strings.ToLower(line)
	switch {
	case strings.Contains(l, "communicate with the nvidia driver") || strings.Contains(l, "driver not loaded") ||
		strings.Contains(l, "driver is not loaded"):
		return fmt.Sprintf(driverUnreachable, line)
	case strings.Contains(l, "insufficient permissions"):
		return fmt.Sprintf(smiNoPermission, line)
	}
	return fmt.Sprintf("nvidia-smi could not reach the driver (%q); gpuscope doctor on that machine says why", line)
}

// driverUnreachable: the kernel module did not answer. The causes, most
// frequent first in the corpus: a kernel update the module was not
// rebuilt for (b22-smi-failed-communicate-kernel-upgrade-*,
// b21-*-dkms-rebuild-*), a driver package for another kernel
// (b17-smi-failed-unraid-*), a guest without its driver
// (b8-smi-failed-communicate-*); [nvidia-driver-install] in
// docs/references.md.
const driverUnreachable = `nvidia-smi could not reach the NVIDIA driver (%q): its kernel module is not loaded there, ` +
	`or the machine has no NVIDIA GPU it drives; nothing about the GPUs was judged. On that machine gpuscope doctor says ` +
	`why; by hand: lsmod | grep nvidia, then sudo modprobe nvidia, whose error names the cause (no module built for ` +
	`the running kernel after an update: dkms status, reinstall the driver for uname -r; Secure Boot refusing an unsigned ` +
	`module: mokutil --sb-state; nouveau holding the GPU: lsmod | grep nouveau), and lspci -nn | grep -i nvidia`

// smiNoPermission: NVML opened the driver but may not use the device
// files. In a container the corpus shows SELinux labels on the NVIDIA
// files (b23-docker-nvml-insufficient-permissions-selinux-*, the
// maintainer's answer) and rootless runtimes whose device cgroups the
// toolkit cannot write (its no-cgroups setting,
// b23-docker-nvml-unknown-error-no-cgroups-*).
const smiNoPermission = `nvidia-smi may not use the GPUs' device files (%q); nothing about the GPUs was judged. ` +
	`On a host: ls -l /dev/nvidia* (the files' group and mode; the driver's NVreg_DeviceFileMode). In a container: ` +
	`if it works with --privileged, SELinux labels on the NVIDIA files (restorecon, or the toolkit's SELinux policy); ` +
	`under rootless Podman or Docker, no-cgroups in /etc/nvidia-container-runtime/config.toml set for that runtime`
