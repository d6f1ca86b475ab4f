package diagnose

import "strings"

// The driver's kernel module and its user-space libraries of different
// releases (sampler.Node.DriverMismatch, read by
// sampler/importer/drvmismatch.go): NVML and CUDA refuse every GPU of the
// machine until they match, so it is the rule an unusable GPU gets,
// xid_error, critical, for the node; the GPUs are not at fault. The live
// sampler's own NVML error says the same as a cause of no GPU source
// (sampler/nvmlsource/explain.go, rm_mismatch).

var hintDriverMismatch = fix{"driver_mismatch", "reboot, so the installed driver's kernel module loads (or stop every GPU " +
	"process and reload the nvidia modules); if the versions still differ, reinstall the driver so its kernel module and " +
	"its libraries (libnvidia-ml, libcuda; in a container those mounted from the host) come from one release, and keep " +
	"its packages out of unattended upgrades"}

// driverMismatch reports the node whose driver and libraries differ.
func (e *evCtx) driverMismatch() {
	m := e.last.Node.DriverMismatch
	if m == "" {
		return
	}
	e.add(RuleXidError, Critical, -1,
		say("evidence.drv_mismatch_title", "No GPU is usable: the NVIDIA driver's kernel module and its libraries are of different releases"),
		Text{say("evidence.drv_mismatch", "the driver says: {{.Line}}", "Line", m)}, hintDriverMismatch,
		Text{say("evidence.drv_mismatch_est", "the message names no GPU: NVML and CUDA refuse every GPU of the machine while the "+
			"versions differ; the GPUs themselves are not at fault")},
		Use{-1, "driver_mismatch"})
}

// The driver older than the CUDA runtime a program was built with (CUDA
// error 35, cudaErrorInsufficientDriver: "not a supported configuration",
// [cuda-runtime-errors]; read by sampler/importer/cudaerr.go): that program
// can use no GPU until the driver is updated, so, like the mismatch above,
// xid_error, critical, for the node; the GPUs are not at fault.
var hintDriverTooOld = fix{"driver_too_old", "update the NVIDIA driver to one that supports the CUDA version the program " +
	"was built with (CUDA's release notes give each toolkit's minimum driver), or use a build of the program for the CUDA " +
	"the driver supports (nvidia-smi's header shows the driver); in a container the host's driver is the one that counts"}

// cudaOldDriver: the application's CUDA error is 35, as the importer words it.
func cudaOldDriver(c string) bool { return strings.HasPrefix(c, "35:") }

// driverTooOld reports the node whose driver is older than a program's
// CUDA runtime; m is the error as read.
func (e *evCtx) driverTooOld(m Msg) {
	e.add(RuleXidError, Critical, -1,
		say("evidence.drv_too_old_title", "No GPU is usable by the program: the NVIDIA driver is older than the CUDA runtime it was built with"),
		Text{m}, hintDriverTooOld,
		Text{say("evidence.drv_too_old_est", "the message names no GPU and no version: the driver's version (nvidia-smi) "+
			"against the CUDA the program or its container image was built with says how far apart they are; the GPUs "+
			"themselves are not at fault")},
		Use{-1, "cuda_error"})
}
