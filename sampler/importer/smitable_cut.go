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

// noGPURow is the refusal's reason for a table that yielded no GPU row:
// only its banner, its header (the paste cut inside or under it), or a
// process list whose rows name no GPU. Read, it would be a snapshot of no
// GPU, and the report's "no findings" a clean bill for what was never
// judged (docs/corpus-accuracy.md, batch 20's table cut in its header);
// other sections of the same paste are read as before.
func noGPURow(driver string, header, procs bool) string {
	drv := ""
	if driver != "" {
		drv = " (driver " + driver + ")"
	}
	switch {
	case procs:
		return "a process list without a GPU row" + drv + ": nothing about the GPUs was judged"
	case header:
		return "the table is cut before its first GPU row" + drv + ": nothing about the GPUs was judged"
	case driver != "":
		return "only its banner" + drv + ": the paste stops before the GPU rows, nothing to read"
	}
	return "a box without the GPU table's header words"
}

// noGPUBox is the note's tail for a table whose GPUs are known only from
// its process or MIG devices rows (cur, the last GPU box begun, is nil):
// their index is all the paste shows of them, so their readings were not
// judged, whatever the process list lets the rules say.
func noGPUBox(cur *tableGPU) string {
	if cur != nil {
		return ""
	}
	return "; no GPU row: the GPUs are known only from their process or MIG rows; their own readings not seen, not judged"
}
