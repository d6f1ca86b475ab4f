package importer

import "strings"

// nvidia-smi's error for a GPU it cannot reach ends "GPU is lost. Reboot
// the system to recover this GPU"; that tail quoted alone in a sentence,
// without the device-handle prefix and its address, is as much the tool's
// own words (a 375-era thread, corpus batch 27: "The GPU is lost.Reboot the
// system to recover the GPU"). Two substrings, no pattern: asked of every
// pasted line.
func isSMILostTail(s string) bool {
	return strings.Contains(s, "GPU is lost.") && strings.Contains(s, "eboot the system to recover")
}

// isSMIErrLine: a line of nvidia-smi's error output, at a line's start,
// quoted with its address, or its lost-GPU tail quoted alone.
func isSMIErrLine(s string) bool {
	return smiErrRE.MatchString(s) || smiErrQuotedRE.MatchString(s) || isSMILostTail(s)
}
