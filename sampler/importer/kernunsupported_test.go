package importer

import (
	"strings"
	"testing"
)

// The driver's "not supported by the NVIDIA <release> driver release"
// message, wrapped by the driver (dmesg stamps) or by a journal, is refused
// naming the release and the GPU's PCI ID, not read as a lost GPU nor
// called text without an Xid; a log without it keeps the usual refusal.
func TestKernelUnsupportedGPURefused(t *testing.T) {
	for _, in := range []string{
		"[   38.136321] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2330)\n" +
			"[   38.136321] NVRM: installed in this system is not supported by the\n" +
			"[   38.136321] NVRM: NVIDIA 550.90.07 driver release.\n" +
			"[   38.136321] NVRM: Please see 'Appendix A - Supported NVIDIA GPU Products'\n",
		"Jun 03 10:01:02 vm1 kernel: NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2330) installed in this\n" +
			"Jun 03 10:01:02 vm1 kernel: NVRM: system is not supported by the NVIDIA 550.90.07 driver\n" +
			"Jun 03 10:01:02 vm1 kernel: NVRM: release.\n",
	} {
		snaps, _, err := readString(in)
		if err == nil || !strings.Contains(err.Error(), "driver release 550.90.07 does not support the GPU with PCI ID 10de:2330") {
			t.Errorf("%q: snaps %+v, err %v; want refused naming the release and the GPU", in, snaps, err)
		}
	}
	if r := kernUnsupportedReason([]string{"[    8.1] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  595.58.03"}); r != "" {
		t.Errorf("a load line gave reason %q", r)
	}
}
