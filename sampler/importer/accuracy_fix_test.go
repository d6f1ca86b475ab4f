package importer

import "testing"

// -q's maximum operating temperature is read (the corpus' MX330 limited
// to 57 C, smi-q-d-temperature-mx330-*), and Memory Max Operating Temp is
// not taken for the GPU's.
func TestSMIQMaxOperatingTemp(t *testing.T) {
	in := "==============NVSMI LOG==============\n\nDriver Version                            : 465.27\n\nAttached GPUs                             : 1\n" +
		"GPU 00000000:2D:00.0\n    Temperature\n        GPU Current Temp                  : 56 C\n        GPU Shutdown Temp                 : 102 C\n" +
		"        GPU Slowdown Temp                 : 97 C\n        Memory Max Operating Temp         : 85 C\n        GPU Max Operating Temp            : 57 C\n" +
		"        GPU Target Temperature            : 83 C\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	g := snaps[len(snaps)-1].GPUs[0]
	if !g.TempMaxOp.OK || g.TempMaxOp.V != 57 || g.TempSlowdown.V != 97 || g.TempShutdown.V != 102 || g.TempTarget.V != 83 {
		t.Errorf("max op %+v slowdown %+v shutdown %+v target %+v; want 57, 97, 102, 83", g.TempMaxOp, g.TempSlowdown, g.TempShutdown, g.TempTarget)
	}
}

// A table cut after a GPU's GPU-Util cell (the compute mode and the box's
// edge lost) still gives that GPU-Util: both GPUs of the corpus' stuck
// 2xM40 job read 100 % (smi-table-cut-2xm40-*).
func TestTableRowCutAfterUtil(t *testing.T) {
	in := "| NVIDIA-SMI 367.48                 Driver Version: 367.48                    |\n" +
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
		"| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n" +
		"|===============================+======================+======================|\n" +
		"|   0  Tesla M40 24GB      Off  | 0000:02:00.0     Off |                    0 |\n" +
		"| N/A   33C    P0    67W / 250W |    761MiB / 22939MiB |    100%      Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n" +
		"|   1  Tesla M40 24GB      Off  | 0000:03:00.0     Off |                    0 |\n" +
		"| N/A   47C    P0    71W / 250W |    761MiB / 22939MiB |    100%"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	gs := snaps[len(snaps)-1].GPUs
	if len(gs) != 2 || !gs[1].Util.OK || gs[1].Util.V != 100 || gs[1].Power.V != 71 {
		t.Errorf("GPU 1 %+v; want 100 %% GPU-Util at 71 W", gs)
	}
}
