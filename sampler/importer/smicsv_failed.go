package importer

import (
	"bytes"
	"fmt"
	"strings"
)

// csvReadFailed: a --query-gpu cell where nvidia-smi asked NVML for the
// field and got an error back. "[N/A]" and "[Not Supported]" say the board
// does not report the field; "[Unknown Error]" is NVML_ERROR_UNKNOWN ("any
// unexpected error": [nvml-api]), the CSV spelling of the table's ERR!
// (smitable_err.go), and "[GPU requires reset]" / "[GPU is lost]" are
// NVML_ERROR_RESET_REQUIRED and NVML_ERROR_GPU_IS_LOST.
func csvReadFailed(cell string) bool {
	switch strings.ToLower(strings.TrimSpace(cell)) {
	case "[unknown error]", "[gpu requires reset]", "[gpu is lost]", "err!":
		return true
	}
	return false
}

// failedReadWhy is the one sentence both notes end with.
const failedReadWhy = "nvidia-smi's read of that field failed with an NVML error " +
	"(a failing fan, sensor or driver call on that GPU, not an unsupported field); " +
	"nvidia-smi -q -i N on that GPU shows whether it lasts"

// noteFailedReads notes, once per GPU and field, a cell of a headered
// --query-gpu row that nvidia-smi failed to read: the value is absent
// either way (isNA), the failure is worth a note as the table's ERR! is.
func (s *smiCSV) noteFailedReads(cells []string) {
	who := "the GPU of that row" // no index column
	for i, c := range s.cols {
		if c.role == roleIndex && i < len(cells) {
			who = "GPU " + strings.TrimSpace(cells[i])
		}
	}
	for i, cell := range cells {
		if i >= len(s.names) || !csvReadFailed(cell) {
			continue
		}
		s.addOnce("failed:"+who+":"+s.names[i], "line %d: %s %s reads %s: %s",
			s.in.no, who, s.names[i], strings.TrimSpace(cell), failedReadWhy)
	}
}

// maxFailedNamed bounds how many failed cells a refusal names: a GPU whose
// every field failed would otherwise repeat one sentence per column.
const maxFailedNamed = 4

// csvFailedReads names the failed cells of the --query-gpu rows at the head
// of a paste that gpuscope cannot read (no header line, so no column name):
// by row, which is one GPU per line in nvidia-smi's order, and by field
// position. A refusal that says which GPU's read failed keeps what the
// rows show; without it the paste says nothing at all (corpus:
// b34-csv-units-fan-unknown-error-*).
func csvFailedReads(head []byte) string {
	var named []string
	more := 0
	row := 0
	for _, l := range bytes.Split(bytes.TrimSpace(head), []byte("\n")) {
		line := strings.TrimSpace(string(l))
		if !csvRowLike(line) {
			continue
		}
		row++
		for i, c := range strings.Split(line, ",") {
			if !csvReadFailed(c) {
				continue
			}
			if len(named) == maxFailedNamed {
				more++
				continue
			}
			named = append(named, fmt.Sprintf("row %d field %d reads %s", row, i+1, strings.TrimSpace(c)))
		}
	}
	if len(named) == 0 {
		return ""
	}
	tail := ""
	if more > 0 {
		tail = fmt.Sprintf(" and %d more", more)
	}
	return "; " + strings.Join(named, ", ") + tail + ": " + failedReadWhy
}
