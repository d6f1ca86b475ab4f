package importer

import "strconv"

// A -q whose header attaches more GPUs than its blocks show (nvidia-smi
// -q -i N prints one of eight; a paste cut after GPU 0 the same) says the
// others were not judged, so that "no finding" is not read as the node
// judged healthy (the cut -q heads of docs/corpus-accuracy.md, batch 8).

// qTail is the tail of a -q section's read note: n is the most GPU blocks
// one snapshot holds.
func (q *qState) qTail(n int) string {
	if q.attached <= n {
		return ""
	}
	return "; " + strconv.Itoa(q.attached) + " GPUs attached, " + strconv.Itoa(n) +
		" shown (nvidia-smi -q -i, or a cut paste): the others were not seen, not judged"
}

// noGPUBlock is the refusal's reason for a -q whose header came without a
// GPU block (the paste cut under "Attached GPUs"): read, it would be a
// snapshot of no GPU and "no findings" a clean bill for nothing judged.
func (q *qState) noGPUBlock() string {
	why := "its header without a GPU block"
	if q.attached > 0 {
		why = "its header (" + strconv.Itoa(q.attached) + " GPUs attached) without a GPU block"
	}
	if d := q.p.snaps[0].Node.Driver; d != "" {
		why += " (driver " + d + ")"
	}
	return why + ": the paste stops before the GPUs, nothing about them was judged"
}
