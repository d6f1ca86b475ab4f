package importer

import (
	"strings"
	"testing"
)

// Pastes that yield no GPU row, written from the default table's and -q's
// layouts (a 530+ table, a 5xx one, -q's header): each is refused saying
// what came and that nothing about the GPUs was judged, instead of read as
// a snapshot of no GPU whose report says "no findings".
func TestNoGPURowRefused(t *testing.T) {
	banner := "+---------------------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
	header := "|-----------------------------------------+----------------------+----------------------+\n" +
		"| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
		"| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |\n" +
		"|                                         |                      |               MIG M. |\n"
	rule := "|=========================================+======================+======================|\n"
	procs := "+---------------------------------------------------------------------------------------+\n" +
		"| Processes:                                                                            |\n" +
		"|  GPU   GI   CI        PID   Type   Process name                            GPU Memory |\n" +
		"|        ID   ID                                                             Usage      |\n" +
		"|=======================================================================================|\n" +
		"|  No running processes found                                                           |\n" +
		"+---------------------------------------------------------------------------------------+\n"
	qHead := "\n==============NVSMI LOG==============\n\n" +
		"Timestamp                                 : Mon Dec  7 10:00:00 2026\n" +
		"Driver Version                            : 535.104.05\n" +
		"CUDA Version                              : 12.2\n\n" +
		"Attached GPUs                             : 8\n"
	for in, want := range map[string]string{
		banner + header:               "the table is cut before its first GPU row (driver 535.104.05): nothing about the GPUs was judged",
		banner + header[:150]:         "the table is cut before its first GPU row (driver 535.104.05)",
		banner + header + rule:        "the table is cut before its first GPU row (driver 535.104.05)",
		banner + header + rule + "\n": "the table is cut before its first GPU row",
		header + rule:                 "the table is cut before its first GPU row: nothing about the GPUs was judged",
		procs:                         "a process list without a GPU row: nothing about the GPUs was judged",
		banner:                        "only its banner (driver 535.104.05)",
		qHead:                         "its header (8 GPUs attached) without a GPU block (driver 535.104.05): the paste stops before the GPUs, nothing about them was judged",
	} {
		_, _, err := NewStream(strings.NewReader(in), "paste", Options{Start: fixedStart})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err %v\nwant %q for\n%s", err, want, in)
		}
	}
}

// A table cut in its header beside a table that shows its GPU: the GPU is
// read and the cut one is listed as skipped with its reason.
func TestNoGPURowBesideATable(t *testing.T) {
	head := "+-----------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 525.85.12    Driver Version: 525.85.12    CUDA Version: 12.0     |\n" +
		"|-------------------------------+----------------------+----------------------+\n" +
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
		"| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n"
	gpu0 := "|===============================+======================+======================|\n" +
		"|   0  NVIDIA A10          Off  | 00000000:17:00.0 Off |                    0 |\n" +
		"|  0%   38C    P8    21W / 150W |      0MiB / 23028MiB |      0%      Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n"
	snaps, ev := readPaste(t, head+"\nand on the other node:\n\n"+head+gpu0)
	if len(snaps) == 0 || len(snaps[0].GPUs) != 1 {
		t.Fatalf("snapshots %+v", snaps)
	}
	sec := strings.Join(ev.Sections(), "\n")
	if !strings.Contains(sec, "skipped: the table is cut before its first GPU row") || !strings.Contains(sec, "read: driver 525.85.12, 1 GPU") {
		t.Errorf("sections:\n%s", sec)
	}
}

// A table of which only the process box came (a paste of its bottom)
// knows its GPU by index alone: the read note says the GPU's own readings
// were not seen, and a table with its GPU row says nothing of the kind.
func TestProcessRowsOnlySayReadingsNotJudged(t *testing.T) {
	procs := "+-----------------------------------------------------------------------------+\n" +
		"| Processes:                                                                  |\n" +
		"|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |\n" +
		"|        ID   ID                                                   Usage      |\n" +
		"|=============================================================================|\n" +
		"|    0   N/A  N/A      1234      C   python                          10000MiB |\n" +
		"+-----------------------------------------------------------------------------+\n"
	table := "+-----------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 525.85.12    Driver Version: 525.85.12    CUDA Version: 12.0     |\n" +
		"|-------------------------------+----------------------+----------------------+\n" +
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
		"| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n" +
		"|===============================+======================+======================|\n" +
		"|   0  NVIDIA A10          Off  | 00000000:17:00.0 Off |                    0 |\n" +
		"|  0%   38C    P8    21W / 150W |  10000MiB / 23028MiB |      0%      Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n"
	const note = "no GPU row: the GPUs are known only from their process or MIG rows; their own readings not seen, not judged"
	for in, want := range map[string]bool{procs: true, table + procs: false} {
		_, ev := readPaste(t, in)
		if sec := strings.Join(ev.Sections(), "\n"); strings.Contains(sec, note) != want {
			t.Errorf("note %q wanted %v in\n%s", note, want, sec)
		}
	}
}
