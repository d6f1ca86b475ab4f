package importer

import (
	"strconv"
	"strings"
)

// A table whose paste stops inside a box (a thread's index cutting it, a
// terminal's scrollback, a reply quoting its top) shows nothing of what came
// after the cut: the GPUs read are no verdict on the rest of the node, so the
// read note says where it stops, as dcgmi diag's does (dcgmdiag.go diagCut;
// the cut tables of docs/corpus-accuracy.md, batches 6 to 12).

// tableCut is the note's tail for a table cut inside a box, "" when its last
// line is a border or not a box line. block is the part of the table the
// last line is in, cur the last GPU box begun.
func tableCut(ls []string, block string, cur *tableGPU) string {
	k := len(ls) - 1
	for k >= 0 && strings.TrimSpace(ls[k]) == "" {
		k--
	}
	if k < 0 {
		return ""
	}
	last := strings.TrimSpace(ls[k])
	if !strings.HasPrefix(last, "|") || strings.HasPrefix(last, "|=") {
		return ""
	}
	switch block {
	case "procs":
		return "; the table is cut inside its process list: processes after the cut not seen"
	case "mig":
		return "; the table is cut inside its MIG devices: the process list not seen, not judged"
	}
	if cur == nil {
		return "; the table is cut before its first GPU box: no GPU judged"
	}
	return "; the table is cut inside a box at or after GPU " + strconv.Itoa(cur.g.Index) +
		": later GPUs and the process list not seen, not judged"
}

// bannerOnly is the refusal's reason for a table of which only the banner
// came (the paste cut before its header and GPU rows), "" otherwise.
func bannerOnly(driver string) string {
	if driver == "" {
		return ""
	}
	return "only its banner (driver " + driver + "): the paste stops before the GPU rows, nothing to read"
}
