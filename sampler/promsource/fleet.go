package promsource

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// Options tune the fleet queries.
type Options struct {
	// IdleFor is how long a GPU must have been idle while holding memory to
	// count as wasted now: 30 min by default (utilisation audits look at
	// 15-30 min spans; diagnose's rule uses 90 s for a live view).
	IdleFor time.Duration
	// Step is the subquery resolution; 1 min by default, which a 30 s
	// dcgm-exporter interval fills.
	Step time.Duration
}

func (o Options) withDefaults() Options {
	if o.IdleFor == 0 {
		o.IdleFor = 30 * time.Minute
	}
	if o.Step == 0 {
		o.Step = time.Minute
	}
	return o
}

// Series names, each family's spellings: gpuscope's own, dcgm-exporter's,
// and DCGM 4.x's renamed fields, which newer exporters may emit (the old
// names stay as aliases). The scale turns each into the snapshot's unit.
var (
	utilNames     = []string{"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_GPU_UTIL_RATIO", "gpuscope_gpu_utilization_ratio"}
	memUsedNames  = []string{"DCGM_FI_DEV_FB_USED", "gpuscope_gpu_memory_used_bytes"}
	memTotalNames = []string{"DCGM_FI_DEV_FB_TOTAL", "gpuscope_gpu_memory_total_bytes"}
	powerNames    = []string{"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_BOARD_POWER_WATTS", "gpuscope_gpu_power_watts"}
	energyNames   = []string{"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "gpuscope_gpu_energy_joules_total"}
	smActiveNames = []string{"DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_SM_UTIL_RATIO", "gpuscope_gpu_sm_active_ratio"}
)

// idleHeld is 1 while a GPU is idle (util < 10%) and holds ≥ 10% of its
// memory, 0 otherwise: diagnose's memory_idle_held thresholds
// (diagnose/rule_memory.go), in both name sets.
func (s *Source) idleHeld() string {
	dcgm := fmt.Sprintf(`((%s < bool 10) * (%s / (%s + %s) >= bool 0.1))`,
		s.sel("DCGM_FI_DEV_GPU_UTIL"), s.sel("DCGM_FI_DEV_FB_USED"), s.sel("DCGM_FI_DEV_FB_USED"), s.sel("DCGM_FI_DEV_FB_FREE"))
	own := fmt.Sprintf(`((%s < bool 0.1) * (%s / %s >= bool 0.1))`,
		s.sel("gpuscope_gpu_utilization_ratio"), s.sel("gpuscope_gpu_memory_used_bytes"), s.sel("gpuscope_gpu_memory_total_bytes"))
	return dcgm + " or " + own
}

// Fleet reads the fleet at now with one query per figure, each aggregated
// over every node by the server (not one query per node).
func (s *Source) Fleet(ctx context.Context, now time.Time, opts Options) (fleetsnap.Fleet, error) {
	opts = opts.withDefaults()
	f := fleetsnap.Fleet{At: now}
	b := newFleetBuilder()
	b.jobLabel = s.jobLabel
	// The inventory: every target with GPU series in the last hour, so a
	// target that went down is still listed (as down).
	err := s.queryEach(ctx, s.inventory(fmt.Sprintf("last_over_time(%s[1h])", s.names(utilNames))), now,
		func(m metric, _ float64) { b.gpu(m) })
	if err != nil {
		return f, err // nothing to show without it
	}
	// The figures are queried concurrently (the server evaluates them in
	// parallel) and applied sample by sample as they are decoded, under
	// one lock; no figure depends on another's arriving first (what
	// combines two, FB_FREE with FB_USED and a finding with its start, is
	// joined once all are in).
	type pending struct {
		q    string
		each func(metric, float64)
	}
	var queue []pending
	try := func(q string, each func(metric, float64)) { queue = append(queue, pending{q, each}) }
	var neverUp []fleetsnap.NodeKey // down targets without any GPU series
	try(s.sel("up"), func(m metric, v float64) {
		if n := b.nodes[keyOf(m)]; n != nil {
			n.Up = v == 1
		} else if v == 0 {
			neverUp = append(neverUp, keyOf(m))
		}
	})
	try(s.figure(utilNames, latest), func(m metric, v float64) {
		if g := b.gpu(m); g != nil {
			g.Util = sampler.Some(v)
		}
	})
	try(s.figure(memUsedNames, latest), func(m metric, v float64) {
		if g := b.gpu(m); g != nil {
			g.MemUsed = sampler.Some(v)
		}
	})
	try(s.figure(memTotalNames, latest), func(m metric, v float64) {
		if g := b.gpu(m); g != nil {
			g.MemTotal = sampler.Some(v)
		}
	})
	memFree := map[*fleetsnap.GPU]float64{}
	try(perGPU(s.sel("DCGM_FI_DEV_FB_FREE")), func(m metric, v float64) { // dcgm-exporter's default set has no FB_TOTAL
		if g := b.gpu(m); g != nil {
			memFree[g] = v * mib
		}
	})
	try(s.figure(powerNames, latest), func(m metric, v float64) {
		if g := b.gpu(m); g != nil {
			g.Power = sampler.Some(v)
		}
	})
	try(s.energyLastHour(), func(m metric, v float64) {
		if g := b.gpu(m); g != nil {
			g.EnergyKWh = sampler.Some(v / joulesPerKWh)
		}
	})
	step := promDuration(opts.Step)
	// Each subquery point idle and held is one step of waste; summing
	// (not averaging) counts only the time the server has data for.
	try(perGPU(fmt.Sprintf("sum_over_time((%s)[1h:%s])", s.idleHeld(), step)), func(m metric, v float64) {
		if g := b.gpu(m); g != nil {
			g.IdleHeldHours = v * opts.Step.Hours()
		}
	})
	span := promDuration(opts.IdleFor)
	// Held all of IdleFor, and the server has (nearly) all of IdleFor: a
	// target scraped for two minutes has not been idle for 30.
	need := int(0.9 * float64(opts.IdleFor/opts.Step))
	try(perGPU(fmt.Sprintf("(min_over_time((%[1]s)[%[2]s:%[3]s]) == 1) and (count_over_time((%[1]s)[%[2]s:%[3]s]) >= %[4]d)",
		s.idleHeld(), span, step, need)), func(m metric, _ float64) {
		if g := b.gpu(m); g != nil {
			g.IdleHeldLong = true
		}
	})
	try(perGPU(fmt.Sprintf("max_over_time(%s[1h]) > 0 or increase(%s[1h]) > 0",
		s.sel("DCGM_FI_DEV_XID_ERRORS"), s.sel("gpuscope_gpu_xid_errors_total"))), func(m metric, _ float64) {
		if g := b.gpu(m); g != nil {
			g.Xid = true
		}
	})
	// increase() handles counter resets (a driver reload zeroes them).
	try(perGPU(fmt.Sprintf("increase(%s[1h]) > 0", s.names([]string{"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "gpuscope_gpu_ecc_uncorrected_errors_total"}))),
		func(m metric, _ float64) {
			if g := b.gpu(m); g != nil {
				g.ECC = true
			}
		})
	// Means over MeanWindow.
	mean := func(sel string) string {
		return fmt.Sprintf("avg_over_time(%s[%s])", sel, promDuration(fleetsnap.MeanWindow))
	}
	try(s.figure(utilNames, mean), func(m metric, v float64) {
		if g := b.gpu(m); g != nil {
			g.UtilMean = sampler.Some(v)
		}
	})
	try(s.figure(smActiveNames, mean), func(m metric, v float64) {
		if g := b.gpu(m); g != nil {
			g.SMActiveMean = sampler.Some(v)
		}
	})
	since := map[string]time.Time{}
	ids := map[*fleetsnap.Node][]string{} // findingID of each n.Findings[i], to join its start
	try(s.sel("gpuscope_finding_since_timestamp_seconds"), func(m metric, v float64) {
		since[findingID(m)] = time.UnixMilli(int64(v * 1e3))
	})
	try(s.sel("gpuscope_finding"), func(m metric, _ float64) {
		n := b.nodes[keyOf(m)]
		if n == nil {
			return
		}
		gpu, _ := strconv.Atoi(string(m["gpu"]))
		pid, _ := strconv.Atoi(string(m["pid"]))
		n.Findings = append(n.Findings, fleetsnap.Finding{Rule: string(m["rule"]), Severity: string(m["severity"]),
			GPU: gpu, PID: pid})
		ids[n] = append(ids[n], findingID(m))
	})
	try(fmt.Sprintf("group by (job, instance) (%s)", s.sel("gpuscope_build_info")), func(m metric, _ float64) {
		if n := b.nodes[keyOf(m)]; n != nil {
			n.Gpuscope = true
		}
	})
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, 4) // queries at a time
	problems := make([]error, len(queue))
	for i, p := range queue {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			problems[i] = s.queryEach(ctx, p.q, now, func(m metric, v float64) {
				mu.Lock()
				defer mu.Unlock()
				p.each(m, v)
			})
		}()
	}
	wg.Wait()
	for _, err := range problems {
		if err != nil {
			f.Problems = append(f.Problems, err.Error())
		}
	}
	for g, free := range memFree {
		if !g.MemTotal.OK && g.MemUsed.OK {
			g.MemTotal = sampler.Some(g.MemUsed.V + free)
		}
	}
	for _, n := range b.nodes {
		for i := range n.Findings {
			n.Findings[i].Since = since[ids[n][i]]
		}
	}
	b.neverUp(neverUp)
	f.Nodes = b.finish()
	return f, nil
}

const mib = 1 << 20

func findingID(m metric) string {
	return string(m["job"]) + "\x00" + string(m["instance"]) + "\x00" + string(m["rule"]) + "\x00" + string(m["gpu"]) + "\x00" + string(m["pid"])
}

// energyLastHour is each GPU's energy counter's rise over the last hour in
// joules (increase() takes a driver reload for the reset it is).
func (s *Source) energyLastHour() string {
	return s.figure(energyNames, func(sel string) string { return "increase(" + sel + "[1h])" })
}
