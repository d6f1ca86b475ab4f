package importer

import (
	"strings"
)

// dcgmi diag's own error when it could not run ("Error: Unable to complete
// diagnostic for group 1. Return: (-30) : ...", then the cause on the next
// "Error:" lines, such as plugins built for another CUDA major version
// than the driver's): no test ran, so nothing of the GPUs was judged; the
// section is refused with the error as its reason.
var diagErrRE = lazy(`^\s*Error: Unable to complete diagnostic\b`)

const kindDiagErr = "dcgmi diag error"

func isDiagErrLine(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), "Error: ") }

// diagErrRun claims the error line at ls[i] and the Error: lines under it.
func diagErrRun(ls []string, i int) int {
	if !strings.Contains(ls[i], "Error: Unable") || !diagErrRE.MatchString(ls[i]) { // the classifier runs it on every line
		return 0
	}
	return runWhile(ls, i, isDiagErrLine)
}

func parseDiagErr(sec *section) *part {
	why := strings.TrimSpace(sec.lines[len(sec.lines)-1])
	return newPart(sec).skip("dcgmi diag did not run (" + clip(why, fmErrMax) + "): no test was judged; " +
		"fix what it names (DCGM's plugins must match the driver's CUDA major version, its host engine must run) and run it again")
}
