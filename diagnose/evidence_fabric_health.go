package diagnose

import "strings"

// A fabric that registered its GPUs (State Completed, Status Success) and
// then reports itself unhealthy: -q's Fabric / Health / Summary, from
// NVML's fabric health (bandwidth degraded, a route unhealthy or in
// recovery, an access timeout recovery, an incorrect configuration;
// [nvml-api]). The fabric manager runs; the NVLink fabric under it does
// not carry what it should, and multi-node NVLink falls back or stops
// (corpus: b26-smi-q-grep-fabric-completed-health-unhealthy-*, where the
// DRA driver fell back to non-MNNVL mode).

var hintFabricHealth = fix{"fabric_health", "The GPUs joined the NVLink fabric but it reports itself unhealthy: nvidia-smi -q | " +
	"grep -A14 Fabric names what (bandwidth degraded, a route unhealthy or recovering, an incorrect configuration such as " +
	"too few NVLinks or incompatible firmware); nvidia-smi nvlink -s shows links down; read the fabric manager's log " +
	"(journalctl -u nvidia-fabricmanager, /var/log/fabricmanager.log); drain the node, reset its GPUs or reboot, and have the " +
	"NVLink parts (switch trays, cables, the GPU) checked if it stays unhealthy ([fabric-manager]; [nvml-api])"}

// fabricHealth reports the node whose GPUs' fabric says it is unhealthy
// ("Limited Capacity" at warning: the fabric works with less).
func (e *evCtx) fabricHealth() {
	var ev Text
	var uses []Use
	sev := Warning
	for i := range e.last.GPUs {
		g := &e.last.GPUs[i]
		h := strings.ToLower(g.FabricHealth)
		if h != "unhealthy" && h != "limited capacity" {
			continue
		}
		if h == "unhealthy" {
			sev = Critical
		}
		ev = append(ev, say("evidence.fabric_health", "GPU {{.GPU}} fabric {{.State}}, health {{.Health}} ({{.Why}})", "GPU", g.Index,
			"State", orNA(g.FabricState), "Health", g.FabricHealth, "Why", orNA(g.FabricHealthWhy)))
		uses = append(uses, Use{g.Index, "fabric_health"})
	}
	if len(ev) == 0 {
		return
	}
	e.add(RuleFabricManager, sev, -1, say("evidence.fabric_health_title", "NVLink fabric unhealthy: the GPUs joined it but it does not carry what it should"),
		ev, hintFabricHealth, nil, uses...)
}
