package importer

import (
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// The driver's kernel module and its user-space libraries of different
// releases: after an upgrade without a reboot (the old module still
// loaded), a package left from another release, or a container's mounted
// libraries that are not the host's. Every NVML and CUDA client is refused
// on every GPU until they match. Two sources say it in their own words:
//
//	Failed to initialize NVML: Driver/library version mismatch        nvidia-smi
//	Error: nvml: Driver/library version mismatch                      go-nvml's error (nvidia-docker, plugins)
//	nvidia-container-cli: initialization error: nvml error: driver/library version mismatch
//	NVRM: API mismatch: the client has the version 545.29.06, but     the kernel module (nv.c), with
//	NVRM: this kernel module has the version 550.54.14.  Please       the module's own version next
//	NVRM: API mismatch: the client 'Xorg' (pid 912)                  newer modules (R575 and later in the
//	NVRM: has the version 575.64, but this kernel module has          copies seen) name the client and wrap
//	NVRM: the version 570.153.02.  Please make sure that this         before each version (each line with its own
//	                                                                  timestamp or prefix in some copies)
//	kernel version 515.48.7 does not match DSO version 510.73.5 -- cannot find working devices in this configuration
//
// nvmlErrorString(NVML_ERROR_LIB_RM_VERSION_MISMATCH) is the first
// (nvml.h); the kernel's lines come one message per line, or joined on one.
// The last is XLA's and TensorFlow's stream executor (cuda_diagnostics.cc),
// which compares the module's version with libcuda's (the DSO) before it
// looks for devices; its line holds both. The fabric manager's own version
// mismatch is fmlog.go's, not this.
var (
	drvMismatchRE = lazy(`(?i)\bdriver/library version mismatch\b|\bNVRM: API mismatch: the client has the version ([0-9][\w.-]*?),? but|` +
		`\bNVRM: API mismatch: the client '[^']*' \(pid \d+\)(?:\s+|#012)(?:.{0,60}?NVRM:\s+)?has the version ([0-9][\w.-]*?),? but|` +
		`\bkernel version [0-9][\d.]*[0-9] does not match DSO version [0-9][\d.]*[0-9]`)
	drvModuleRE = lazy(`this kernel module has(?:\s+|#012)(?:.{0,60}?NVRM:\s+)?the version ([0-9][\w.-]*?)\.?(?:\s|#|$)`)
)

// isDriverMismatchLine asks the pattern only of lines with "match", lower
// case in every form above ("mismatch", "does not match"; a lower-cased
// copy of each line cost an allocation a line: docs/benchmarks.md, "Corpus
// batch 16").
func isDriverMismatchLine(s string) bool {
	return strings.Contains(s, "match") && drvMismatchRE.MatchString(s)
}

// parseDriverMismatch reads the first mismatch line of sec as a fact of the
// node (no GPU is named: the driver serves none), with the two versions
// where the kernel gave them; nil when sec has none.
func parseDriverMismatch(sec *section) *part {
	for i, l := range sec.lines {
		if !isDriverMismatchLine(l) {
			if l = wrappedMismatch(sec.lines, i); l == "" {
				continue
			}
		}
		m := drvMismatchRE.FindStringSubmatch(l)
		what := strings.TrimSpace(m[0])
		if client := m[1] + m[2]; client != "" {
			what = "NVRM: API mismatch: the client (libraries) " + client
			// The module's version is on the message's line, the next,
			// or (the client-naming form) the one after that: the line,
			// or the lines a wrap cut it into, and the two next.
			in := l
			for j := i + 1; j < len(sec.lines) && j <= i+2; j++ {
				in += " " + sec.lines[j]
			}
			if v := drvModuleRE.FindStringSubmatch(in); v != nil {
				what += ", the loaded kernel module " + v[1]
			}
		}
		p := newPart(sec)
		p.where(-1, "driver_mismatch", sec.first+i)
		p.snaps = []sampler.Snapshot{{Node: sampler.Node{DriverMismatch: what}}}
		p.note("the driver's kernel module and its libraries are of different releases")
		return p
	}
	return nil
}

// wrappedMismatch is the kernel's API-mismatch message starting on line i
// when a copy wrapped it where the unwrapper does not join it (a word wrap
// between the words and the version), the next lines joined back at the
// spaces the wrap dropped; "" when line i does not start it.
func wrappedMismatch(lines []string, i int) string {
	if !strings.Contains(lines[i], "API mismatch") {
		return ""
	}
	l := lines[i]
	for j := i + 1; j < len(lines) && j <= i+3; j++ {
		if l += " " + lines[j]; isDriverMismatchLine(l) {
			return l
		}
	}
	return ""
}
