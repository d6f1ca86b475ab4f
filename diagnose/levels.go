package diagnose

import (
	"github.com/gpuscope/gpuscope/sampler"
)

// Level is one of [gpu-idle-pipeline] §1's three levels for one GPU over a window.
type Level struct {
	Value   sampler.Metric // the median over the window, n/a when unknown
	Label   string         // e.g. "GPU-Util p50 97%"
	Verdict string         // "yes", "partly", "no" or "n/a"
	I18n    Text           `json:",omitempty"` // Label as messages (see Finding.I18n)
}

// Levels answers [gpu-idle-pipeline] §1: is a kernel running (GPU-Util), are the SMs
// filled (SM activity), and are they computing rather than waiting (tensor
// activity)? Only the first is visible without GPM (Hopper and newer).
type Levels struct{ KernelRunning, SMFilled, Computing Level }

// Verdict thresholds.
const (
	// kernelYes: util ≥ 80% is "busy" ([dcgm-profiling]: 0.8 is where use
	// starts to be good); kernelPartly: below 30% a kernel runs less than a
	// third of the time, which no tuning calls busy.
	kernelYes    = 80.0
	kernelPartly = 30.0
	// smYes / smPartly: DCGM SM active ≥ 0.8 "necessary", < 0.5 "likely
	// ineffective" ([dcgm-profiling]).
	smYes    = 80.0
	smPartly = 50.0
	// computeYes / computePartly: tensor activity; ≥ 40% is a dense
	// mixed-precision workload, < 10% is barely using tensor cores (the
	// demo's dense training sits at 45-60%, measured in docs/scenarios.md).
	computeYes    = 40.0
	computePartly = 10.0
)

// ThreeLevels summarises GPU gpu (its Index) over the window.
func ThreeLevels(window []sampler.Snapshot, gpu int) Levels { return threeLevels(window, gpu, nil) }

// levelSeries are the orders keys of the series ThreeLevels reads, apart
// from summariseGPU's 0 to 5 when both share one orders.
const (
	levelUtil = 10 + iota
	levelSM
	levelOccupancy
	levelTensor
	levelDRAM
)

// threeLevels is ThreeLevels with the series kept sorted in o across
// evaluations (orders.go); o nil: selected afresh.
func threeLevels(window []sampler.Snapshot, gpu int, o *orders) Levels {
	var buf []float64
	var times []int64
	p50 := func(key int, f func(*sampler.GPU) sampler.Metric) sampler.Metric {
		buf, times = buf[:0], times[:0]
		for i := range window {
			if x := gpuIn(&window[i], gpu); x != nil && !x.Lost {
				if m := f(x); m.OK {
					buf = append(buf, m.V)
					times = append(times, window[i].Time.UnixNano())
				}
			}
		}
		if len(buf) == 0 {
			return sampler.NA
		}
		if o != nil {
			return sampler.Some(o.summarise(orderKey{gpu, key}, times, buf).p50)
		}
		return sampler.Some(summarise(buf).p50)
	}
	util := p50(levelUtil, func(x *sampler.GPU) sampler.Metric { return x.Util })
	sm, smName := p50(levelSM, func(x *sampler.GPU) sampler.Metric { return x.SMActive }), say("word.sm_active", "SM active")
	if !sm.OK {
		sm, smName = p50(levelOccupancy, func(x *sampler.GPU) sampler.Metric { return x.SMOccupancy }), say("word.sm_occupancy", "SM occupancy")
	}
	tensor := p50(levelTensor, func(x *sampler.GPU) sampler.Metric { return x.TensorActive })
	dram := p50(levelDRAM, func(x *sampler.GPU) sampler.Metric { return x.DRAMActive })

	var l Levels
	l.KernelRunning = level(util, say("word.gpu_util", "GPU-Util"), kernelYes, kernelPartly, nil)
	l.SMFilled = level(sm, smName, smYes, smPartly,
		Text{say("level.sm_na", "SM activity n/a ({{.Why}})", "Why", gpmNAReason(window, gpu, sampler.NASMActive))})
	l.Computing = level(tensor, say("word.tensor_active", "tensor active"), computeYes, computePartly,
		Text{say("level.tensor_na", "tensor activity n/a ({{.Why}})", "Why", gpmNAReason(window, gpu, sampler.NATensorActive))})
	if l.Computing.Verdict != "yes" && dram.OK && dram.V >= dramBound {
		l.Computing.Verdict = "no"
		l.Computing.I18n = append(l.Computing.I18n, item("level.waiting_memory", "waiting on memory (DRAM {{.DRAM}})", "DRAM", pct(dram.V)))
		l.Computing.Label = l.Computing.I18n.String()
	}
	return l
}

func level(m sampler.Metric, name Msg, yes, partly float64, naLabel Text) Level {
	if !m.OK {
		if naLabel == nil {
			naLabel = Text{say("level.na", "{{.Name}} n/a", "Name", name)}
		}
		return Level{Value: m, Label: naLabel.String(), Verdict: "n/a", I18n: naLabel}
	}
	t := Text{say("level.p50", "{{.Name}} p50 {{.Value}}", "Name", name, "Value", pct(m.V))}
	l := Level{Value: m, Label: t.String(), I18n: t}
	switch {
	case m.V >= yes:
		l.Verdict = "yes"
	case m.V >= partly:
		l.Verdict = "partly"
	default:
		l.Verdict = "no"
	}
	return l
}

// gpmNAReason is why a GPM field is n/a on gpu, as the newest snapshot
// that says so gives it (a Hopper GPU on a driver without GPM says "not
// in this driver version", not "needs Hopper"); logs of other tools carry
// no reason, and there GPM's absence is the architecture's.
func gpmNAReason(window []sampler.Snapshot, gpu int, field string) string {
	for i := len(window) - 1; i >= 0; i-- {
		if x := gpuIn(&window[i], gpu); x != nil && x.NA[field] != "" {
			return x.NA[field]
		}
	}
	return sampler.ReasonNoGPM
}
