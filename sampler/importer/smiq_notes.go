package importer

import (
	"fmt"
	"strconv"
	"strings"
)

// What a -q paste shows of itself that its readings do not: how many GPUs
// the driver attached against how many blocks came (nvidia-smi -q -i N
// prints one of eight, a paste cut at GPU 0 the same), and fields whose
// query NVML failed ("Unknown Error", "ERR!"), which nvidia-smi prints in
// place of a value. Neither is a finding (a 375 driver prints Product
// Brand : Unknown Error for a healthy board: docs/corpus-accuracy.md,
// batch 8); both are said so that "no finding" is not read as the node
// judged healthy.

// qFailed reports whether a -q value is nvidia-smi's word for a failed query.
func qFailed(val string) bool {
	v := strings.Trim(val, "[]")
	return v == "Unknown Error" || v == "ERR!" || v == "GPU is lost"
}

// noteFailed records a field whose query failed on the GPU being read;
// the same field failing on several GPUs is one entry naming them all.
func (q *qState) noteFailed(key, val string) {
	idx := 0
	if q.gpu != nil {
		idx = q.gpu.Index
	}
	what := key + " reads " + strings.Trim(val, "[]")
	for i := range q.failed {
		if q.failed[i].what == what {
			q.failed[i].gpus = append(q.failed[i].gpus, strconv.Itoa(idx))
			return
		}
	}
	q.failed = append(q.failed, qFailure{what, []string{strconv.Itoa(idx)}})
}

// qFailure is one field whose query failed and the GPUs it failed on.
type qFailure struct {
	what string
	gpus []string
}

// qTail is the tail of a -q section's read note: n is the most GPU
// blocks one snapshot holds.
func (q *qState) qTail(n int) string {
	var b strings.Builder
	if q.attached > n {
		fmt.Fprintf(&b, "; %d GPUs attached, %d shown (nvidia-smi -q -i, or a cut paste): the others were not seen, not judged", q.attached, n)
	}
	for _, f := range q.failed {
		gpu := "GPU "
		if len(f.gpus) > 1 {
			gpu = "GPUs "
		}
		fmt.Fprintf(&b, "; %s%s: %s (a query NVML failed; nvidia-smi -q again shows whether it lasts)", gpu, strings.Join(f.gpus, ", "), f.what)
	}
	return b.String()
}

// attachedGPUs reads -q's "Attached GPUs" header value.
func (q *qState) attachedGPUs(val string) {
	q.attached, _ = strconv.Atoi(val)
}
