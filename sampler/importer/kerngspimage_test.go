package importer

import (
	"strings"
	"testing"
)

// The open module's "RmFetchGspRmImages: No firmware image found" before a
// GPU's RmInitAdapter failure says why that GPU failed: the firmware file
// was missing. After the failure, or without it, the GPU is only lost.
func TestKernelNoGSPImageMarksInitFailure(t *testing.T) {
	const noImage = "[    6.101] NVRM: RmFetchGspRmImages: No firmware image found\n"
	const initFail = "[    6.102] NVRM: GPU 0000:3b:00.0: RmInitAdapter failed! (0x61:0x56:1697)\n" +
		"[    6.102] NVRM: GPU 0000:3b:00.0: rm_init_adapter failed, device minor number 0\n"
	for _, c := range []struct {
		in      string
		missing bool
	}{
		{noImage + initFail, true},
		{"Mar 02 10:11:12 host kernel: " + strings.TrimPrefix(noImage, "[    6.101] ") + initFail, true},
		{initFail, false},
		{initFail + noImage, false},
	} {
		snaps, ev := readPaste(t, c.in)
		g := snaps[0].GPUs
		if len(g) != 1 || !g[0].Lost || g[0].GSPFirmwareMissing != c.missing {
			t.Errorf("%q: read %+v, want one lost GPU, firmware missing %v", c.in, g, c.missing)
			continue
		}
		if says := strings.Contains(strings.Join(ev.Sections(), "\n"), "no GSP firmware image"); says != (c.missing || strings.HasSuffix(c.in, noImage)) {
			t.Errorf("%q: the read line says the missing image: %v", c.in, says)
		}
	}
}
