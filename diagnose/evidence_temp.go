package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// evMaxOpMargin: a GPU within this many °C of its maximum operating (or
// GPU Boost target) temperature is held there by the driver (it cuts clocks
// to stay under the limit; the sensor's reading moves a degree or two
// around it). The limit can sit far below the slowdown tier: a laptop's
// MX330 limited to 57 C by thermald in the corpus (smi-q-d-temperature-mx330-*).
const evMaxOpMargin = 2.0

// evMaxOpLowered: boards ship the limit a few degrees under the slowdown
// tier (the corpus' -q -x files: 83-93 C); 20 C or more under it was set
// lower by the platform.
const evMaxOpLowered = 20.0

// maxOpTemp: a GPU at its maximum operating temperature, or at the GPU
// Boost target set on it, is thermally limited whether or not the input
// shows clock event reasons (-q -d TEMPERATURE prints none). Skipped when
// the clock reasons already gave the thermal finding.
func (e *evCtx) maxOpTemp(g *sampler.GPU) {
	limit, field := g.TempMaxOp, "temp_max_op"
	if g.TempTarget.OK && g.TempTarget.V > 0 && (!limit.OK || g.TempTarget.V < limit.V) {
		limit, field = g.TempTarget, "temp_target"
	}
	if !g.Temp.OK || !limit.OK || limit.V <= 0 || g.Temp.V < limit.V-evMaxOpMargin {
		return
	}
	for _, f := range e.out {
		if f.Rule == RuleThermalThrottle && f.GPU == g.Index {
			return
		}
	}
	title := say("evidence.max_op_title", "GPU {{.GPU}} at its maximum operating temperature", "GPU", g.Index)
	ev := Text{say("evidence.max_op_temp", "{{.Temp}} °C with a maximum operating temperature of {{.Max}} °C", "Temp", f0(g.Temp.V), "Max", f0(limit.V))}
	if field == "temp_target" {
		title = say("evidence.target_temp_title", "GPU {{.GPU}} at its GPU Boost target temperature", "GPU", g.Index)
		ev = Text{say("evidence.target_temp", "{{.Temp}} °C with a target temperature of {{.Max}} °C", "Temp", f0(g.Temp.V), "Max", f0(limit.V))}
	}
	if g.TempSlowdown.OK && g.TempSlowdown.V >= limit.V+evMaxOpLowered {
		ev = append(ev, say("evidence.max_op_below_slowdown", "the limit is set {{.Gap}} °C below the slowdown temperature ({{.Slowdown}} °C): "+
			"it was lowered (by the platform, a thermal daemon or nvidia-smi --gpu-target-temp)", "Gap", f0(g.TempSlowdown.V-limit.V), "Slowdown", f0(g.TempSlowdown.V)))
	}
	e.add(RuleThermalThrottle, Warning, g.Index, title, ev, hintMaxOpTemp, e.oneShot(say("evidence.max_op_est", "the driver cuts clocks to stay under the limit; "+
		"nvidia-smi -q -d PERFORMANCE shows SW Thermal Slowdown active while it does")), Use{g.Index, "temp"}, Use{g.Index, field})
}

var hintMaxOpTemp = fix{"max_op_temp", "Cool the GPU or raise the limit where it was lowered: nvidia-smi -q -d TEMPERATURE shows " +
	"the Max Operating Temp and Target Temperature next to the Slowdown and Shutdown Temps; a limit far below the slowdown tier comes " +
	"from the platform (a laptop's thermal daemon or firmware, e.g. thermald's config, or the BIOS' fan and temperature profile) or " +
	"a target set with nvidia-smi --gpu-target-temp (GeForce): fix it there; otherwise check airflow and fans ([gpu-idle-handbook] §6.2)"}
