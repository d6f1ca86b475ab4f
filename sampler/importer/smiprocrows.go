package importer

// Process rows pasted without the table around them: the author copied the
// rows of nvidia-smi's "Processes:" block alone, as
//
//	|    3   N/A  N/A     58825      C   python3     1405MiB |
//
// (corpus: b24-smi-procs-rows-three-ranks-*). A row this exact names its
// GPU, PID, type and memory, so a run of them is read as a process list
// whose GPUs are known only from their rows, as the table reader reads a
// table cut before its GPU boxes (smitable_cut.go).
var bareProcRowRE = lazy(`^\s*\|\s+\d{1,2}\s+(?:(?:N/A|\d+)\s+(?:N/A|\d+)\s+)?\d+\s+(?:C|G|C\+G|G\+C|M|M\+C|M\+G|M\+C\+G)\s+\S.*?\s(?:\d+MiB|N/A)\s*\|\s*$`)

func isBareProcRow(s string) bool { return bareProcRowRE.MatchString(s) }

// bareProcRun is the length of the run of process rows at ls[i], or 0.
func bareProcRun(ls []string, i int) int {
	if !isBareProcRow(ls[i]) {
		return 0
	}
	return runWhile(ls, i, isBareProcRow)
}
