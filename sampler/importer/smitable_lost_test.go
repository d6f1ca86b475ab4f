package importer

import (
	"strings"
	"testing"
)

// A GPU whose every reading in its box is ERR! (temperature, performance
// state and GPU-Util, the reads NVML makes of the device itself) is a GPU
// the driver cannot reach, read as lost; one failed field (a fan, a power
// reading) stays a note.
func TestTableAllERRIsLost(t *testing.T) {
	in := "+-----------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n" +
		"|-------------------------------+----------------------+----------------------+\n" +
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
		"| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n" +
		"|===============================+======================+======================|\n" +
		"|   0  Tesla V100-SXM2...  On   | 00000000:3B:00.0 Off |                    0 |\n" +
		"| N/A   38C    P0    52W / 300W |      0MiB / 32510MiB |      0%      Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n" +
		"|   1  Tesla V100-SXM2...  On   | 00000000:5E:00.0 Off |                 ERR! |\n" +
		"| N/A  ERR!  ERR!     N/A /  N/A |      0MiB / 32510MiB |    ERR!      Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n" +
		"|   2  Tesla V100-SXM2...  On   | 00000000:86:00.0 Off |                    0 |\n" +
		"| N/A   37C    P0   ERR! / 300W |      0MiB / 32510MiB |      0%      Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n"
	snaps, ev := readPaste(t, in)
	g := snaps[0].GPUs
	if len(g) != 3 || g[0].Lost || !g[1].Lost || g[2].Lost {
		t.Fatalf("want GPU 1 alone lost, got %d GPUs: %v %v %v", len(g), len(g) > 0 && g[0].Lost, len(g) > 1 && g[1].Lost, len(g) > 2 && g[2].Lost)
	}
	if secs := strings.Join(ev.Sections(), "\n"); !strings.Contains(secs, "GPU 1 answers no reading") {
		t.Errorf("sections do not say why GPU 1 is lost:\n%s", secs)
	}
}
