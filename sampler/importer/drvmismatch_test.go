package importer

import (
	"strings"
	"testing"
)

// The driver's kernel module and its libraries of different releases, in
// the words of NVML's error string (nvidia-smi, go-nvml, the container
// CLI) and of the kernel module's message (one message per line, or joined
// on one, the version forms of old and new releases), is read as a fact of
// the node with the versions the kernel gives; the fabric manager's own
// version mismatch and a bare "NVML library version" line are not.
func TestDriverMismatch(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 580.65\n", "Driver/library version mismatch"},
		{"2024/05/01 10:00:00 Error: nvml: Driver/library version mismatch\n", "Driver/library version mismatch"},
		{"docker: Error response from daemon: failed to create task for container: nvidia-container-cli: initialization error: " +
			"nvml error: driver/library version mismatch: unknown.\n", "driver/library version mismatch"},
		{"[ 5210.120001] NVRM: API mismatch: the client has the version 560.35.03, but\n" +
			"               NVRM: this kernel module has the version 555.42.06.  Please\n" +
			"               NVRM: make sure that this kernel module and all NVIDIA driver\n" +
			"               NVRM: components have the same version.\n", "client (libraries) 560.35.03, the loaded kernel module 555.42.06"},
		{"kernel: NVRM: API mismatch: the client has the version 304.137, but this kernel module has the version 340.108.  " +
			"Please make sure that this kernel module and all NVIDIA driver components have the same version.\n",
			"client (libraries) 304.137, the loaded kernel module 340.108"},
		{"NVRM: API mismatch: the client has the version 1.0-9631, but\nNVRM: this kernel module has the version 1.0-9746.  Please\n",
			"client (libraries) 1.0-9631, the loaded kernel module 1.0-9746"},
	} {
		snaps, _, err := readString(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := snaps[len(snaps)-1].Node.DriverMismatch; !strings.Contains(got, c.want) {
			t.Errorf("%q: driver mismatch %q, want it to hold %q", c.in, got, c.want)
		}
	}
	for _, in := range []string{
		"[ERROR] fabric manager version mismatch: the driver is 535.54.03 and the fabric manager is 535.86.10\n",
		"NVML library version: 570.86\n",
		"the driver version and the library version did not match, so I rebooted\n",
	} {
		snaps, _, err := readString(in)
		if err != nil {
			continue
		}
		for _, s := range snaps {
			if s.Node.DriverMismatch != "" {
				t.Errorf("%q read as a driver/library mismatch: %q", in, s.Node.DriverMismatch)
			}
		}
	}
}
