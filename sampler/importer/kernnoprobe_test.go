package importer

import (
	"strings"
	"testing"
)

// The driver's "probe routine was not called" message, in the wording of
// today's nv.c and of drivers before nouveau was named in it, with and
// without dmesg's stamps and journalctl's prefix: refused naming the other
// driver that holds the GPUs, not read as a lost GPU nor called text
// without an Xid.
func TestKernelNoProbeRefused(t *testing.T) {
	for _, in := range []string{
		"[    4.120331] NVRM: The NVIDIA probe routine was not called for 2 device(s).\n" +
			"[    4.120333] NVRM: This can occur when a driver such as: \n" +
			"NVRM: nouveau, rivafb, nvidiafb or rivatv \n" +
			"NVRM: was loaded and obtained ownership of the NVIDIA device(s).\n" +
			"[    4.120340] NVRM: No NVIDIA devices probed.\n",
		"Mar 02 09:14:27 node7 kernel: NVRM: The NVIDIA probe routine was not called for 1 device(s).\n" +
			"Mar 02 09:14:27 node7 kernel: NVRM: This can occur when a driver such as rivafb, nvidiafb or\n" +
			"Mar 02 09:14:27 node7 kernel: NVRM: rivatv was loaded and obtained ownership of the NVIDIA\n" +
			"Mar 02 09:14:27 node7 kernel: NVRM: device(s).\n",
	} {
		snaps, _, err := readString(in)
		if err == nil || !strings.Contains(err.Error(), "another driver was bound first") {
			t.Errorf("%q: snaps %+v, err %v; want refused naming the other driver", in, snaps, err)
		}
	}
	if r := kernNoProbeReason([]string{"NVRM: The NVIDIA probe routine was not called for 4 device(s)."}); !strings.Contains(r, "for 4 of the node's GPUs") {
		t.Errorf("reason %q; want the count the driver gives", r)
	}
}
