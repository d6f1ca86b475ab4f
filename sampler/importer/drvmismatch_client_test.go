package importer

import (
	"strings"
	"testing"
)

// The kernel module's API-mismatch message in the form that names the
// client process (newer drivers: the client's name and pid on the first
// line, each version wrapped onto the next), as dmesg prints it, as the
// journal indents it and as syslog joins it with #012, is the same fact
// of the node as the older form, with both versions.
func TestDriverMismatchClientNamed(t *testing.T) {
	msg := []string{
		"NVRM: API mismatch: the client 'nvidia-powerd' (pid 849)",
		"NVRM: has the version 570.133.07, but this kernel module has",
		"NVRM: the version 575.51.02.  Please make sure that this",
		"NVRM: kernel module and all NVIDIA driver components",
		"NVRM: have the same version.",
	}
	dmesg := "[    4.201337] " + strings.Join(msg, "\n[    4.201337] ") + "\n"
	journal := "Apr 19 12:34:42 host kernel: " + strings.Join(msg, "\n                               ") + "\n"
	syslog := "Apr 19 12:34:42 host kernel: " + strings.Join(msg, "#012") + "\n"
	const want = "client (libraries) 570.133.07, the loaded kernel module 575.51.02"
	for _, in := range []string{dmesg, journal, syslog} {
		snaps, _, err := readString(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := snaps[len(snaps)-1].Node.DriverMismatch; !strings.Contains(got, want) {
			t.Errorf("%q: driver mismatch %q, want it to hold %q", in, got, want)
		}
	}
}
