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
