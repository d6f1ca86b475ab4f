package diagnose

// fix is a first fix as a rule hands it to its finding: the id the
// finding carries (Finding.FixID, so a reader's language is looked up by
// it: ui/i18n's "fix.<id>") beside its English (Finding.Hint, what
// recordings and JSON readers keep). An Xid catalogue's advice, built with
// numbers, has no id and stays English.
type fix struct{ id, en string }

// firstFixes lists every fix with an id (a translation must cover them
// all; TestEveryFirstFixIsListed holds this list to the source).
func firstFixes() []fix {
	return []fix{
		hintNumWorkers, hintWorkersSaturated, hintHostSaturated, hintIO, hintSync, hintLaunch, hintMemBW, hintAMP,
		hintCopy, hintIdleHeld, hintIdleNotebook, hintAllocIdle, hintMemPressure, hintLoadImbalance, hintStraggler, hintCommPCIe,
		hintCommNVLink, hintContention, hintPowerCap, hintThermal, hintThermalHW, hintPCIeLink, hintPCIeErrors, hintXidApp,
		hintXidHW, hintECC, hintECCPending, hintServingDynamic, hintServingContinuous,
		// The evidence path's own fixes (a pasted snapshot or short series).
		hintSpin, hintSwing, hintIdleSnapshot, hintHang, hintFabric, hintContentionSnapshot, hintDiagNVLink, hintGPUBusy, hintVGPULicense,
		hintContainerLost, hintNCCLNVLink, hintMaxOpTemp, hintPrealloc, hintFabricFailed, hintSliceOOM, hintVCUDASlice, hintInfoROM,
		hintSliceCard, hintDriverOops, hintCUDAOOM, hintGSPFirmware, hintDriverMismatch, hintDriverTooOld, hintBAR(), hintStrayRanks, hintFabricHealth, hintMemOthers,
	}
}

// FixIDs lists every first fix's id.
func FixIDs() []string {
	var out []string
	for _, f := range firstFixes() {
		out = append(out, f.id)
	}
	return out
}

// FirstFix is the English of the first fix whose id is id (FixIDs), for
// findings made outside this package (diagnose/timeline); "" for an
// unknown id.
func FirstFix(id string) string {
	for _, f := range firstFixes() {
		if f.id == id {
			return f.en
		}
	}
	return ""
}

// FixIDOf is the id of a first fix's English text, "" for any other
// text. Only for findings read from recordings made before findings
// carried their fix's id (no fix_id): every finding made now has one.
func FixIDOf(hint string) string {
	for _, f := range firstFixes() {
		if f.en == hint {
			return f.id
		}
	}
	return ""
}
