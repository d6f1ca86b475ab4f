package importer

// The driver's status NV_ERR_RESET_REQUIRED ("Reset required" in
// open-gpu-kernel-modules' nvstatuscodes.h) logged by a call that failed
// with it, with or without the driver's GPU number:
//
//	NVRM: nvAssertOkFailedNoLog: Assertion failed: Reset required [NV_ERR_RESET_REQUIRED] (0x00000062) returned from status @ kernel_channel.c:2827
//
// The GPU refuses work until it is reset: lost, placed as the firmware
// timeouts are (kerngsp.go), with a note of its own.
var resetRequiredRE = lazy(`NVRM: (?:GPU(\d+) )?.*\bNV_ERR_RESET_REQUIRED\b`)

// resetsRequired collects, per driver instance number ("" when the line
// names none), the first line of one kernel section reporting the status.
type resetsRequired struct{ fwTimeouts }

func (r resetsRequired) add(l string, line int) bool {
	m := resetRequiredRE.FindStringSubmatch(l)
	if m == nil {
		return false
	}
	if _, ok := r.fwTimeouts[m[1]]; !ok {
		r.fwTimeouts[m[1]] = line
	}
	return true
}

// resolve places them as fwTimeouts.resolve does; the note says what was
// done.
func (r resetsRequired) resolve(named []string, lose func(key string, line int)) string {
	n := 0
	if r.fwTimeouts.resolve(named, func(k string, l int) { n++; lose(k, l) }) == "" {
		return ""
	}
	if n == 0 {
		return "a reset-required status (NV_ERR_RESET_REQUIRED) on a GPU the section does not name by PCI address: not placed"
	}
	return countGPUs(n) + " the driver reports needing a reset (NV_ERR_RESET_REQUIRED): reset the GPU"
}
