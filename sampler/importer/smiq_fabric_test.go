package importer

import "testing"

// -q's Fabric / Health block: the summary, and the sub-fields that are not
// healthy, read; "Full", "False" and "Not Supported" say nothing.
func TestQueryFabricHealth(t *testing.T) {
	in := "# nvidia-smi -q | grep -E -C3 \"ClusterUUID|CliqueId\"\n" +
		"    Fabric\n" +
		"        State                             : Completed\n" +
		"        Status                            : Success\n" +
		"        CliqueId                          : 2\n" +
		"        ClusterUUID                       : dc6e40c4-d722-4357-9ba6-5291dd461278\n" +
		"        Health\n" +
		"            Summary                       : Unhealthy\n" +
		"            Bandwidth                     : Degraded\n" +
		"            Route Recovery in progress    : False\n" +
		"            Route Unhealthy               : True\n" +
		"            Access Timeout Recovery       : Not Supported\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) == 0 || len(snaps[0].GPUs) != 1 {
		t.Fatalf("not read: %v %+v", err, snaps)
	}
	g := snaps[0].GPUs[0]
	if g.FabricState != "Completed" || g.FabricHealth != "Unhealthy" || g.FabricHealthWhy != "Bandwidth: Degraded; Route unhealthy: True" {
		t.Errorf("fabric %q, health %q, why %q", g.FabricState, g.FabricHealth, g.FabricHealthWhy)
	}
}
