package importer

import "testing"

// R610 renamed the banner's fields ("KMD Version", "CUDA UMD Version"); the
// driver and CUDA versions read the same as from the older banner.
func TestTableBannerDriverVersions(t *testing.T) {
	box := "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n" +
		"| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n" +
		"|=========================================+========================+======================|\n" +
		"|   0  NVIDIA B200                    On  |   00000000:63:00.0 Off |                    0 |\n" +
		"| N/A   26C    P0            139W / 1000W |       0MiB / 183359MiB |      0%      Default |\n" +
		"+-----------------------------------------+------------------------+----------------------+\n"
	for banner, want := range map[string][2]string{
		"| NVIDIA-SMI 610.43.02              KMD Version: 610.43.02     CUDA UMD Version: 13.3     |\n": {"610.43.02", "13.3"},
		"| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |\n": {"580.95.05", "13.0"},
	} {
		snaps, _ := readPaste(t, banner+box)
		if len(snaps) == 0 {
			t.Fatalf("%q: no snapshot", banner)
		}
		if n := snaps[0].Node; n.Driver != want[0] || n.CUDA != want[1] {
			t.Errorf("%q: driver %q CUDA %q, want %q %q", banner, n.Driver, n.CUDA, want[0], want[1])
		}
	}
}
