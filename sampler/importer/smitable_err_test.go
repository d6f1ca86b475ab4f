package importer

import (
	"strings"
	"testing"
)

// A table field reading ERR! is named in the section's line (which field,
// which GPU), whether the page collapsed the table's spaces or not; the
// reading itself stays absent.
func TestTableERRFieldsNoted(t *testing.T) {
	in := "+-----------------------------------------------------------------------------------------+\n" +
		"| NVIDIA-SMI 550.144.03 Driver Version: 550.144.03 CUDA Version: 12.4 |\n" +
		"| GPU Name Persistence-M | Bus-Id Disp.A | Volatile Uncorr. ECC |\n" +
		"| Fan Temp Perf Pwr:Usage/Cap | Memory-Usage | GPU-Util Compute M. |\n" +
		"|=========================================+========================+======================|\n" +
		"| 0 NVIDIA GeForce RTX 4090 Off | 00000000:1B:00.0 Off | Off |\n" +
		"| 30% 45C P2 69W / 450W | 22273MiB / 24564MiB | 0% Default |\n" +
		"+-----------------------------------------+------------------------+----------------------+\n" +
		"| 1 NVIDIA GeForce RTX 4090 Off | 00000000:1E:00.0 Off | Off |\n" +
		"|ERR! 46C P2 124W / 450W | 21833MiB / 24564MiB | 0% Default |\n" +
		"+-----------------------------------------+------------------------+----------------------+\n" +
		"|   2  Tesla V100-PCIE...  On   | 00008ED0:00:00.0 Off |                    0 |\n" +
		"| N/A   29C    P0   ERR! / 250W |    593MiB / 16160MiB |      0%      Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n"
	snaps, ev := readPaste(t, in)
	secs := strings.Join(ev.Sections(), "\n")
	for _, want := range []string{"GPU 1 fan: ERR!", "GPU 2 power draw: ERR!"} {
		if !strings.Contains(secs, want) {
			t.Errorf("sections do not say %q:\n%s", want, secs)
		}
	}
	if strings.Contains(secs, "GPU 0 ") {
		t.Errorf("GPU 0 read no ERR!:\n%s", secs)
	}
	g := snaps[0].GPUs
	if g[1].Fan.OK || g[2].Power.OK || !g[2].PowerLimit.OK {
		t.Errorf("an ERR! reading must stay absent, the others read: fan %+v power %+v limit %+v", g[1].Fan, g[2].Power, g[2].PowerLimit)
	}
}
