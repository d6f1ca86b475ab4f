package importer

import (
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// readFabricHealth takes one line of -q's Fabric / Health block: its
// Summary, and each sub-field not in its healthy state, named as -q names
// it (NVML's fabric health mask: bandwidth degraded, route recovery in
// progress, route unhealthy, access timeout recovery, an incorrect
// configuration; [nvml-api] in docs/references.md). "N/A" and "Not
// Supported" say nothing (corpus: b26-gpud-fabric-manager-healthy-gb200-*,
// whose health fields all read Not Supported).
func readFabricHealth(g *sampler.GPU, key, val string) {
	v := strings.TrimSpace(val)
	switch lv := strings.ToLower(v); {
	case lv == "" || lv == "n/a" || lv == "not supported":
		return
	case key == "summary":
		g.FabricHealth = v
		return
	case key == "bandwidth" && lv == "full",
		key != "bandwidth" && (lv == "false" || lv == "none"):
		return
	}
	what := strings.ToUpper(key[:1]) + key[1:] + ": " + v
	if g.FabricHealthWhy != "" {
		what = g.FabricHealthWhy + "; " + what
	}
	g.FabricHealthWhy = what
}
