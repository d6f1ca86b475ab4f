package importer

import "testing"

// nvidia-smi's process rows pasted without their table are read as a
// process list (both layouts: with GI/CI columns and without); a row-like
// sentence is not.
func TestBareProcessRowsRead(t *testing.T) {
	in := "|    0   N/A  N/A     58825      C   python3    28175MiB |\n" +
		"|    3   N/A  N/A     58825      C   python3     1405MiB |\n" +
		"|    3   N/A  N/A     58828      C   python3    28179MiB |\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	s := snaps[len(snaps)-1]
	if len(s.GPUs) != 2 || len(s.GPUs[1].Procs) != 2 || s.GPUs[1].Procs[0].PID != 58825 || !s.GPUs[1].Procs[0].MemUsed.OK {
		t.Errorf("want GPUs 0 and 3 with their processes; got %+v", s.GPUs)
	}
	old := "|    0     35165      C   python                                       643MiB |\n"
	if snaps, _, err := readString(old); err != nil || len(snaps[len(snaps)-1].GPUs) != 1 {
		t.Errorf("the 4xx layout's row not read: %v", err)
	}
	if isBareProcRow("| 3 GPUs in use by C programs, see above |") {
		t.Error("a sentence in a box read as a process row")
	}
}
