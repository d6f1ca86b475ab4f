package diagnose

// hintKeys names each first fix with a stable key, so a translation can be
// looked up for the text a finding carries (ui/i18n's "fix.<key>"); the
// English text itself stays the constant in hints.go.
func hintKeys() [][2]string {
	return [][2]string{
		{hintNumWorkers, "num_workers"}, {hintWorkersSaturated, "workers_saturated"}, {hintHostSaturated, "host_saturated"},
		{hintIO, "io"}, {hintSync, "sync"}, {hintLaunch, "launch"}, {hintMemBW, "mem_bw"}, {hintAMP, "amp"},
		{hintCopy, "copy"}, {hintIdleHeld, "idle_held"}, {hintIdleNotebook, "idle_notebook"}, {hintMemPressure, "mem_pressure"},
		{hintLoadImbalance, "load_imbalance"}, {hintStraggler, "straggler"}, {hintCommPCIe, "comm_pcie"},
		{hintCommNVLink, "comm_nvlink"}, {hintContention, "contention"}, {hintPowerCap, "power_cap"}, {hintThermal, "thermal"},
		{hintThermalHW, "thermal_hw"}, {hintPCIeLink, "pcie_link"}, {hintPCIeErrors, "pcie_errors"}, {hintXidApp, "xid_app"},
		{hintXidHW, "xid_hw"}, {hintECC, "ecc"}, {hintECCPending, "ecc_pending"}, {hintServingDynamic, "serving_dynamic"},
		{hintServingContinuous, "serving_continuous"},
		// The evidence path's own fixes (a pasted snapshot or short series).
		{hintSpin, "spin"}, {hintSwing, "swing"}, {hintIdleSnapshot, "idle_snapshot"},
		{hintHang, "hang"}, {hintFabric, "fabric"}, {hintContentionSnapshot, "contention_snapshot"},
		{hintDiagNVLink, "diag_nvlink"}, {hintDiagBusy, "diag_busy"}, {hintVGPULicense, "vgpu_license"},
	}
}

// HintKey is the stable key of a first fix's text, "" for a text that is
// not one of the rules' fixes (a log's own, or one built with numbers).
func HintKey(hint string) string {
	for _, k := range hintKeys() {
		if k[0] == hint {
			return k[1]
		}
	}
	return ""
}

// HintKeys lists every first fix's key (a translation must cover them all).
func HintKeys() []string {
	var out []string
	for _, k := range hintKeys() {
		out = append(out, k[1])
	}
	return out
}

// FirstFix is the first fix whose key is key (HintKeys), for findings
// worded outside this package (diagnose/timeline); "" for an unknown key.
func FirstFix(key string) string {
	for _, k := range hintKeys() {
		if k[1] == key {
			return k[0]
		}
	}
	return ""
}

// Hints lists every first fix's English text, in hintKeys' order.
func Hints() []string {
	var out []string
	for _, k := range hintKeys() {
		out = append(out, k[0])
	}
	return out
}
