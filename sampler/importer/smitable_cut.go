package importer

import (
	"fmt"
	"strings"
)

// A table whose paste stops inside a box (an issue's index cutting it, a
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
		return "; the table stops inside its process list: processes after the cut were not seen"
	case "mig":
		return "; the table stops inside its MIG devices: what follows them (the process list) was not seen, not judged"
	}
	idx := -1
	if cur != nil {
		idx = cur.g.Index
	}
	// a GPU row cut before its second column begins a box the reader skips
	cell := strings.Split(strings.Trim(last, "|"), "|")[0]
	if m := tblIdxRE.FindStringSubmatch(cell); m != nil && m[2] != "" && !strings.Contains(last[1:], "|") {
		fmt.Sscan(m[1], &idx)
	}
	if idx < 0 {
		return "; the table stops before its first GPU box: no GPU was seen, none judged"
	}
	return fmt.Sprintf("; the table stops inside GPU %d's box: its fields after the cut, the GPUs after it and the process list were not seen, not judged", idx)
}

// bannerOnly is the refusal's reason for a table of which only the banner
// came (the paste cut before its header and GPU rows), "" otherwise.
func bannerOnly(driver string) string {
	if driver == "" {
		return ""
	}
	return "only its banner (driver " + driver + "): the paste stops before the GPU rows, nothing to read"
}
