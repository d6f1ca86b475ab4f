package sim

import (
	"math"
	"math/rand/v2"

	"github.com/gpuscope/gpuscope/sampler"
)

// H200 SXM figures from docs/scenarios.md (power limit, clocks, slowdown
// temperature, PCIe Gen5 x16).
const (
	powerLimitDefault = 700.0
	smClockMax        = 1980.0
	smClockIdle       = 345.0 // Hopper's idle SM clock as nvidia-smi shows it
	memClock          = 2619.0
	clockBin          = 15.0 // Hopper clocks move in 15 MHz bins
	tempSlowdown      = 90.0
	maxInletRise      = 10.0 // °C, see step
	pcieGenMax        = 5
	pcieWidthMax      = 16
	windowSteps       = 10 // NVML averages utilisation and power over ~1 s
)

// Power model (fitted so that idle is 75-90 W, a dense training
// step 75-92% of 700 W, launch-bound 150-230 W and memory-bound 60-75% of 700 W, as
// docs/scenarios.md asks). Core power scales with clock^2.5 (P ~ f·V², V
// rising with f), HBM power does not depend on the SM clock.
const (
	wattsPerDRAM   = 190.0
	wattsPerBusy   = 20.0
	wattsPerSM     = 330.0
	wattsPerTensor = 260.0
	clockExponent  = 2.5
	powerNoise     = 3.0 // W, std dev
)

// Memory temperature (a model, our choice): the HBM stacks share the
// package with the die, so their sensor follows the GPU temperature, a few
// degrees cooler at rest and warmer under heavy memory traffic, with a
// shorter time constant than the heatsink's.
const (
	memTempOffset  = -3.0 // °C against the GPU sensor with no memory traffic
	memTempPerDRAM = 8.0  // °C more at DRAM activity 1
	memTempTau     = 5.0  // s
)

// Clock governors (a model, not NVIDIA's firmware): the thermal governor starts pulling clocks
// 4 °C below slowdown; HW slowdown engages at the slowdown temperature.
const (
	thermalKnee    = tempSlowdown - 4
	thermalMHzPerC = 180.0
	idleClockAfter = 0.3   // s without a kernel before clocks drop
	idleLinkAfter  = 1.0   // s without traffic before the PCIe link downtrains
	capMarginWatts = 2.0   // the power governor aims just under the limit
	linkBusyBytes  = 50e6  // B/s of traffic that keeps a link trained up
	boostDipChance = 0.02  // per step, a brief 15-60 MHz dip of the boost clock
	minLoadedClock = 600.0 // MHz, the governors' floor under load
)

// gpuConfig is what is fixed about one GPU in a scenario.
type gpuConfig struct {
	powerLimit float64
	idleWatts  float64 // static power at 30 °C
	inlet      float64 // °C of the air reaching the heatsink
	inletRise  float64 // °C per second after the start (a failing fan wall)
	rth        float64 // °C per W, heatsink to inlet
	tau        float64 // thermal time constant, s
	genCap     int     // PCIe generation the link trains to under load
	widthCap   int
	replayRate float64 // PCIe replays per second
	ecc        eccState
	xids       []xidAt
	mig        migSetup // MIG instances (zero: MIG off)
}

// migSetup splits the GPU into n MIG instances of one profile.
type migSetup struct {
	profile string
	n       int
}

type eccState struct {
	uncorrected, corrected, remapped int
	pending, failed                  bool
}

type xidAt struct {
	at   float64 // seconds after the node's start
	code uint64
}

// stepSample is one 100 ms step of a GPU, kept for the 1 s averages.
type stepSample struct {
	level
	power  float64
	clock  float64
	events uint64
}

// gpuSim is one GPU's physical state.
type gpuSim struct {
	index      int
	cfg        gpuConfig
	work       gpuWork
	rng        *rand.Rand
	temp       float64
	memTemp    float64 // °C, the HBM sensor
	energy     float64 // J since the driver loaded (the warm-up's start)
	smClock    float64
	events     uint64
	idleFor    float64 // seconds since the last kernel
	quietFor   float64 // seconds since the last PCIe traffic burst
	replays    float64
	nextReplay float64
	win        [windowSteps]stepSample
	wi         int
	// powClock, powFactor: the last (clock/max)^2.5 of the power model.
	// The clock sits in 15 MHz bins and mostly stays in one for many
	// steps, so math.Pow is computed again only when it moves
	// (docs/benchmarks.md, "Recording a day: the simulator's share").
	powClock  float64
	powFactor float64
}

func expNeg(x float64) float64 { return math.Exp(-x) }

// step advances the GPU by dt seconds ending at t (seconds from the start).
func (g *gpuSim) step(t, dt float64) {
	l := g.work.load()
	// The driver and monitoring move a few hundred kB/s even on an idle GPU.
	l.PCIeRx += 2e5 + 8e5*g.rng.Float64()
	l.PCIeTx += 1e5 + 4e5*g.rng.Float64()
	if l.Busy > 0 {
		g.idleFor = 0
	} else {
		g.idleFor += dt
	}
	if l.Busy > 0 || l.PCIeRx > linkBusyBytes {
		g.quietFor = 0
	} else {
		g.quietFor += dt
	}

	static := g.cfg.idleWatts + 0.2*(g.temp-30) // leakage grows with temperature
	fixed := static + wattsPerDRAM*l.DRAM + wattsPerBusy*l.Busy
	core := wattsPerSM*l.SM + wattsPerTensor*l.Tensor
	g.smClock, g.events = g.governClock(fixed, core)

	if g.smClock != g.powClock {
		g.powClock, g.powFactor = g.smClock, math.Pow(g.smClock/smClockMax, clockExponent)
	}
	power := fixed + core*g.powFactor + powerNoise*g.rng.NormFloat64()
	power = min(max(power, static*0.95), g.cfg.powerLimit-g.rng.Float64())

	// A cooling fault warms the inlet air, but only by so much: the chassis
	// reaches a new steady state (at most 10 °C, which keeps the
	// 3-minute scenario unchanged and a 24-hour run physical).
	inlet := g.cfg.inlet + min(g.cfg.inletRise*max(t, 0), maxInletRise)
	g.temp += (inlet + g.cfg.rth*power - g.temp) * dt / g.cfg.tau
	g.memTemp += (g.temp + memTempOffset + memTempPerDRAM*l.DRAM - g.memTemp) * dt / memTempTau
	g.energy += power * dt // the counter is the integral of the power drawn

	for g.cfg.replayRate > 0 && g.nextReplay <= t {
		g.replays++
		g.nextReplay += g.rng.ExpFloat64() / g.cfg.replayRate
	}

	g.win[g.wi] = stepSample{level: l, power: power, clock: g.smClock, events: g.events}
	g.wi = (g.wi + 1) % windowSteps
}

// governClock picks the SM clock as the GPU's firmware would: idle clocks
// after a quiet spell; otherwise the boost clock, lowered to fit the power
// limit (core power ~ clock^2.5) and to hold the temperature, with the
// clock event reasons that say why.
func (g *gpuSim) governClock(fixedWatts, coreWatts float64) (clock float64, events uint64) {
	if g.idleFor >= idleClockAfter {
		return smClockIdle, sampler.ClockGpuIdle
	}
	clock = smClockMax
	if budget := g.cfg.powerLimit - capMarginWatts - fixedWatts; coreWatts > budget {
		clock = smClockMax * math.Pow(max(budget, 1)/coreWatts, 1/clockExponent)
		events |= sampler.ClockSwPowerCap
	}
	if g.temp > thermalKnee {
		clock = min(clock, smClockMax-thermalMHzPerC*(g.temp-thermalKnee))
		events |= sampler.ClockSwThermal
	}
	if g.temp >= tempSlowdown {
		events |= sampler.ClockHwThermal
	}
	if g.rng.Float64() < boostDipChance {
		clock -= clockBin * float64(1+g.rng.IntN(4))
	}
	return max(minLoadedClock, math.Floor(clock/clockBin)*clockBin), events
}

// average is the mean of the last second of steps.
func (g *gpuSim) average() stepSample {
	var a stepSample
	for _, s := range g.win {
		a.Busy += s.Busy
		a.SM += s.SM
		a.Occ += s.Occ
		a.Tensor += s.Tensor
		a.DRAM += s.DRAM
		a.PCIeRx += s.PCIeRx
		a.PCIeTx += s.PCIeTx
		a.NVLink += s.NVLink
		a.Enc += s.Enc
		a.Dec += s.Dec
		a.power += s.power
		a.clock += s.clock
	}
	k := 1.0 / windowSteps
	a.Busy *= k
	a.SM *= k
	a.Occ *= k
	a.Tensor *= k
	a.DRAM *= k
	a.PCIeRx *= k
	a.PCIeTx *= k
	a.NVLink *= k
	a.Enc *= k
	a.Dec *= k
	a.power *= k
	a.clock = math.Round(a.clock*k/clockBin) * clockBin
	a.events = windowEvents(g.win[:], g.events)
	return a
}

// windowEvents is what the clock event reasons say beside figures averaged
// over a second: the last step's reasons, as NVML reports them now, except
// "idle", which holds only when the whole second was idle. A sample with
// util 59 %, 389 W and the idle reason at once reads as broken; the other
// reasons stay instantaneous, so a short power-cap brush stays one step's.
func windowEvents(win []stepSample, last uint64) uint64 {
	all := ^uint64(0)
	for _, s := range win {
		all &= s.events
	}
	return last&^sampler.ClockGpuIdle | all&sampler.ClockGpuIdle
}

// pcieGen is the link generation now: idle links downtrain to Gen1 to save
// power, which is normal ([gpu-idle-handbook] §6.3; [nvml-api] current vs
// maximum link generation).
func (g *gpuSim) pcieGen() int {
	if g.quietFor >= idleLinkAfter {
		return 1
	}
	return g.cfg.genCap
}
