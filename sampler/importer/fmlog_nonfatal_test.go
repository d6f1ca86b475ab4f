package importer

import (
	"strings"
	"testing"
)

// A running fabric manager logs the NVSwitch errors it survives as
// "detected NVSwitch non-fatal error N on fid F on NVSwitch pci bus id B
// physical id P port Q" at ERROR level; that is not the fabric manager
// failing (the fabric stays up), so it is refused with what it is, and a
// real failure in the same log is still the node's fabric error.
func TestFabricManagerNonFatalSwitchError(t *testing.T) {
	const nonFatal = "[Mar 03 2025 09:12:44] [ERROR] [tid 5120] detected NVSwitch non-fatal error 20034 on fid 0 on NVSwitch pci bus id 00000000:07:00.0 physical id 0 port 12\n"
	const running = "[Mar 03 2025 09:00:01] [INFO] [tid 4410] multicast group 2 is allocated.\n"
	snaps, _, err := readString(running + nonFatal)
	if len(snaps) > 0 && snaps[0].Node.FabricError != "" {
		t.Fatalf("a non-fatal NVSwitch error read as a fabric manager failure: %q", snaps[0].Node.FabricError)
	}
	if err == nil || !strings.Contains(err.Error(), "non-fatal error 20034") || !strings.Contains(err.Error(), "port 12") {
		t.Errorf("refusal %v does not name the non-fatal error and its port", err)
	}
	const failed = "[Mar 03 2025 09:14:02] [ERROR] [tid 5120] NVLink training failed for NVSwitch 1 port 3\n"
	snaps, _, err = readString(nonFatal + failed)
	if err != nil || len(snaps) != 1 || !strings.Contains(snaps[0].Node.FabricError, "NVLink training failed") {
		t.Errorf("a failure after a non-fatal error: snaps %+v, err %v; want the failure as the fabric error", snaps, err)
	}
}
