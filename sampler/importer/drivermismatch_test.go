package importer

import (
	"strings"
	"testing"
)

// NVML's version mismatch, as nvidia-smi prints it (nvidia-smi(1)) under a
// prompt or alone, is refused naming the mismatch and its fix, not as a
// driver nvidia-smi cannot reach.
func TestNVMLVersionMismatchRefusedWithItsCause(t *testing.T) {
	for _, in := range []string{
		"Failed to initialize NVML: Driver/library version mismatch\n",
		"user@box:~$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.127\n",
	} {
		_, _, err := readString(in)
		if err == nil {
			t.Fatalf("%q: read, want refused", in)
		}
		msg := err.Error()
		if !strings.Contains(msg, "different releases") || !strings.Contains(msg, "reboot") || strings.Contains(msg, "could not reach") {
			t.Errorf("%q: refusal %q does not name the mismatch and its fix", in, msg)
		}
	}
}

// The module's own message, in the layouts the driver's nv.c prints it:
// dmesg with boot stamps (four NVRM lines), a journal that joins them with
// #012, and a syslog copy whose continuation lines are indented. Both
// versions are named; a kernel log without it keeps its reason.
func TestNVRMAPIMismatchRefusedWithVersions(t *testing.T) {
	dmesg := "[   12.345678] NVRM: API mismatch: the client has the version 550.120, but\n" +
		"[   12.345679] NVRM: this kernel module has the version 550.90.07.  Please\n" +
		"[   12.345680] NVRM: make sure that this kernel module and all NVIDIA driver\n" +
		"[   12.345681] NVRM: components have the same version.\n"
	journal := "Mar 02 09:14:51 node7 kernel: NVRM: API mismatch: the client has the version 550.120, but#012NVRM: this kernel module has the version 550.90.07.  Please#012NVRM: make sure that this kernel module and all NVIDIA driver#012NVRM: components have the same version.\n"
	syslog := "Mar  2 09:14:51 node7 kernel: NVRM: API mismatch: the client has the version 550.120, but\n" +
		"                               NVRM: this kernel module has the version 550.90.07.  Please\n"
	// The journal's line as a chat wraps it at 80 columns: the kernel
	// line's tail is joined back (unwrap.go), so the versions still read.
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
		_, _, err := readString(in)
		if err == nil {
			t.Fatalf("%s: read, want refused", name)
		}
		msg := err.Error()
		if !strings.Contains(msg, "550.120") || !strings.Contains(msg, "550.90.07") || !strings.Contains(msg, "reboot") {
			t.Errorf("%s: refusal %q does not name both versions and the fix", name, msg)
		}
	}
	_, _, err := readString("[   12.3] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.90.07\n")
	if err == nil || strings.Contains(err.Error(), "mismatch") {
		t.Errorf("a kernel log without the mismatch: %v", err)
	}
}
