package importer

import (
	"strings"
	"testing"
)

// A 5xx-layout table (nvidia-smi's default output, two GPUs and the
// process box), whole and cut at the places a paste stops: each cut says
// where, and a whole table says nothing of the kind.
func TestTableCutSaysWhere(t *testing.T) {
	head := "+-----------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 525.85.12    Driver Version: 525.85.12    CUDA Version: 12.0     |\n" +
		"|-------------------------------+----------------------+----------------------+\n" +
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
		"| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n" +
		"|===============================+======================+======================|\n"
	gpu0 := "|   0  NVIDIA A10          Off  | 00000000:17:00.0 Off |                    0 |\n" +
		"|  0%   38C    P8    21W / 150W |      0MiB / 23028MiB |      0%      Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n"
	gpu1 := "|   1  NVIDIA A10          Off  | 00000000:65:00.0 Off |                    0 |\n" +
		"|  0%   36C    P8    20W / 150W |      0MiB / 23028MiB |      0%      Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n"
	procs := "+-----------------------------------------------------------------------------+\n" +
		"| Processes:                                                                  |\n" +
		"|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |\n" +
		"|=============================================================================|\n" +
		"|  No running processes found                                                 |\n" +
		"+-----------------------------------------------------------------------------+\n"
	lines := func(s string, n int) string { return strings.Join(strings.SplitAfter(s, "\n")[:n], "") }
	for in, want := range map[string]string{
		head + gpu0 + gpu1 + procs:           "",
		head + gpu0 + gpu1:                   "",
		head + gpu0 + lines(gpu1, 2):         "the table is cut inside a box at or after GPU 1: later GPUs and the process list not seen, not judged",
		head + gpu0 + "|   1  NVIDIA A10\n":  "the table is cut inside a box at or after GPU 0:",
		head + gpu0 + gpu1 + lines(procs, 3): "the table is cut inside its process list",
	} {
		_, ev := readPaste(t, in)
		sec := strings.Join(ev.Sections(), "\n")
		if want == "" && strings.Contains(sec, "cut inside") || want != "" && !strings.Contains(sec, want) {
			t.Errorf("want %q in the read note:\n%s\nof\n%s", want, sec, in)
		}
	}
}

// A table of which only the banner came is refused saying so, not as a
// box without header words.
func TestTableBannerOnlyRefusal(t *testing.T) {
	in := "+-----------------------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 580.65.06              Driver Version: 580.65.06      CUDA Version: 13.0     |\n"
	_, _, err := NewStream(strings.NewReader(in), "paste", Options{Start: fixedStart})
	if err == nil || !strings.Contains(err.Error(), "only its banner (driver 580.65.06): the paste stops before the GPU rows") {
		t.Errorf("err %v", err)
	}
}
