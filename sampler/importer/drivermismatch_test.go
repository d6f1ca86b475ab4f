package importer

import (
	"strings"
	"testing"
)

// The module's own message in the layouts the driver's nv.c prints it
// (dmesg with boot stamps, four NVRM lines; a journal that joins them with
// #012; a syslog copy whose continuation lines are indented; the journal's
// line as a chat wraps it at 80 columns) is read as the node's driver
// mismatch (drvmismatch.go) with both versions; a kernel log without it
// is not.
func TestNVRMAPIMismatchLayouts(t *testing.T) {
	dmesg := "[   12.345678] NVRM: API mismatch: the client has the version 550.120, but\n" +
		"[   12.345679] NVRM: this kernel module has the version 550.90.07.  Please\n" +
		"[   12.345680] NVRM: make sure that this kernel module and all NVIDIA driver\n" +
		"[   12.345681] NVRM: components have the same version.\n"
	journal := "Mar 02 09:14:51 node7 kernel: NVRM: API mismatch: the client has the version 550.120, but#012NVRM: this kernel module has the version 550.90.07.  Please#012NVRM: make sure that this kernel module and all NVIDIA driver#012NVRM: components have the same version.\n"
	syslog := "Mar  2 09:14:51 node7 kernel: NVRM: API mismatch: the client has the version 550.120, but\n" +
		"                               NVRM: this kernel module has the version 550.90.07.  Please\n"
	wrapped := ""
	for rest := strings.TrimSuffix(journal, "\n"); rest != ""; {
		cut := len(rest)
		if cut > 80 {
			cut = strings.LastIndexByte(rest[:80], ' ')
		}
		wrapped += rest[:cut] + "\n"
		rest = strings.TrimPrefix(rest[cut:], " ")
	}
	for name, in := range map[string]string{"dmesg": dmesg, "journal": journal, "syslog": syslog, "wrapped": wrapped} {
		snaps, _, err := readString(in)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := snaps[len(snaps)-1].Node.DriverMismatch; !strings.Contains(got, "550.120") || !strings.Contains(got, "550.90.07") {
			t.Errorf("%s: driver mismatch %q, want both versions", name, got)
		}
	}
	snaps, _, err := readString("[   12.3] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.90.07\n")
	if err == nil && snaps[len(snaps)-1].Node.DriverMismatch != "" {
		t.Errorf("a kernel log without the mismatch read as one: %q", snaps[len(snaps)-1].Node.DriverMismatch)
	}
}
