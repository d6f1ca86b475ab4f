package diagnose

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
