package importer

import (
	"strings"
	"testing"
)

// The fabric manager's service not starting in time is its failure too:
// systemd's words when a unit's start outlasts TimeoutStartSec, and a
// provisioning tool's service resource giving up on it (Chef prints
// "resource[name] (cookbook::recipe line N) had an error: Class: message").
// A timeout of another service, or prose naming the fabric manager, is not.
func TestFabricManagerStartTimeout(t *testing.T) {
	for in, want := range map[string]string{
		"Apr 02 07:12:44 gpu-07 systemd[1]: nvidia-fabricmanager.service: Start operation timed out. Terminating.\n":                               "Start operation timed out",
		"service[nvidia-fabricmanager] (site-gpu::fabric line 12) had an error: Mixlib::ShellOut::CommandTimeout: Command timed out after 600s:\n": "Command timed out after 600s",
	} {
		snaps, _, err := readString(in)
		if err != nil || len(snaps) != 1 || !strings.Contains(snaps[0].Node.FabricError, want) {
			t.Errorf("%q: snaps %+v, err %v; want a fabric error with %q", in, snaps, err, want)
		}
	}
	for _, in := range []string{
		"Apr 02 07:12:44 gpu-07 systemd[1]: nvidia-persistenced.service: Start operation timed out. Terminating.\n",
		"The fabric manager start timed out once last week, then ran.\n",
	} {
		if snaps, _, _ := readString(in); len(snaps) > 0 && snaps[0].Node.FabricError != "" {
			t.Errorf("%q read as a fabric manager failure: %q", in, snaps[0].Node.FabricError)
		}
	}
}
