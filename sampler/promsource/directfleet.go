package promsource

import (
	"context"
	"strconv"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
)

// Fleet scrapes every target and builds the fleet from what each kept:
// the figures Source asks the server for (fleet.go), computed over the
// node's snapshots instead, over as much of their window as was scraped
// (Fleet.Span says how much).
func (d *Direct) Fleet(ctx context.Context, _ time.Time, opts Options) (fleetsnap.Fleet, error) {
	d.scrapeAll(ctx)
	// After the scrapes: their times are not in the future.
	return d.build(time.Now(), opts.withDefaults()), nil
}

// figureSeries are the series gpuFigures reads: each refresh reads an
// hour of them per node (scrapeRing.eachGPU), not the processes and the
// host.
var figureSeries = func() map[string]bool {
	out := map[string]bool{}
	for _, names := range [][]string{utilNames, memUsedNames, memTotalNames, powerNames, energyNames, smActiveNames,
		{"DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_RESERVED", "gpuscope_gpu_memory_reserved_bytes",
			"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "gpuscope_gpu_ecc_uncorrected_errors_total",
			"DCGM_FI_DEV_XID_ERRORS", "gpuscope_gpu_xid_errors_total"}} {
		for _, n := range names {
			out[n] = true
		}
	}
	return out
}()

// latestRead is what build reads of a node's newest scrape: its GPUs (by
// their utilisation's labels) and its exporter's own findings.
func latestRead(name string) bool {
	switch name {
	case "gpuscope_build_info", "gpuscope_finding", "gpuscope_finding_since_timestamp_seconds":
		return true
	}
	return isUtil(name)
}

// build is the fleet from the kept scrapes at now.
func (d *Direct) build(now time.Time, opts Options) fleetsnap.Fleet {
	f := fleetsnap.Fleet{At: now}
	b := newFleetBuilder()
	b.jobLabel = d.jobLabel
	span := Horizon
	var scratch gpuScratch
	for _, t := range d.targets {
		n := d.nodes[t.Instance]
		key := fleetsnap.NodeKey{Instance: t.Instance}
		n.mu.Lock()
		latest := n.ring.latest(latestRead)
		if n.err == "" {
			span = min(span, now.Sub(n.first))
		}
		for _, s := range latest {
			if isUtil(s.name) {
				b.gpu(s.m)
			}
		}
		node := b.nodes[key]
		if node == nil { // never answered: listed, down
			node = &fleetsnap.Node{Key: key, Name: t.Instance}
			b.nodes[key] = node
		}
		node.Up, node.DownReason = n.tried && n.err == "", n.err
		node.Gpuscope, node.Findings = directFindings(latest)
		accs := make(map[int]*figureAcc, len(b.order[key]))
		for _, idx := range b.order[key] {
			accs[idx] = &figureAcc{}
		}
		n.ring.eachGPU(now.Add(-Horizon), &scratch, func(at time.Time, g *sampler.GPU) {
			if a := accs[g.Index]; a != nil {
				a.add(g, at, now)
			}
		})
		n.mu.Unlock()
		for _, idx := range b.order[key] {
			accs[idx].finish(b.gpus[gpuRef{key, idx}], now, opts)
		}
	}
	if span < Horizon {
		f.Span = max(span, time.Millisecond) // one scrape: still less than asked
	}
	f.Nodes = b.finish()
	return f
}

// directFindings reads a gpuscope exporter's own findings from its
// latest scrape, as Source's gpuscope_finding queries do.
func directFindings(latest []scraped) (gpuscope bool, out []fleetsnap.Finding) {
	since := map[string]time.Time{}
	for _, s := range latest {
		if s.name == "gpuscope_finding_since_timestamp_seconds" {
			since[findingID(s.m)] = time.UnixMilli(int64(s.v * 1e3))
		}
	}
	for _, s := range latest {
		switch s.name {
		case "gpuscope_build_info":
			gpuscope = true
		case "gpuscope_finding":
			if s.v != 1 {
				continue
			}
			gpu, _ := strconv.Atoi(s.m["gpu"])
			pid, _ := strconv.Atoi(s.m["pid"])
			out = append(out, fleetsnap.Finding{Rule: s.m["rule"], Severity: s.m["severity"], GPU: gpu, PID: pid,
				Since: since[findingID(s.m)]})
		}
	}
	return gpuscope, out
}

// maxGap is the longest time between two kept scrapes that still counts
// as watched: the ring keeps one per CoarseStep; a longer gap is a node
// that was down.
const maxGap = 2 * CoarseStep

// figureAcc is one GPU's figures as its readings arrive, oldest first,
// straight from the ring (build; the tests hold them equal to the figures
// over the snapshots the ring rebuilds, gpuFigures).
type figureAcc struct {
	seen                    bool
	util, memUsed, memTotal sampler.Metric // the latest readings
	power                   sampler.Metric
	model                   string
	prevEnergy, prevECC     sampler.Metric
	joules                  float64
	energyPts               int
	utilSum, smSum          float64
	utilN, smN              int
	longFrom                time.Time // start of the current unbroken idle-held run
	prevAt                  time.Time
	idleHeldNow, xid, ecc   bool
	idleHeldHours           float64
}

func (a *figureAcc) add(gg *sampler.GPU, at, now time.Time) {
	a.seen = true
	a.util, a.memUsed, a.memTotal, a.power, a.model = gg.Util, gg.MemUsed, gg.MemTotal, gg.Power, gg.Name
	if e := gg.Energy; e.OK {
		if a.prevEnergy.OK {
			if d := e.V - a.prevEnergy.V; d >= 0 {
				a.joules += d
			} else {
				a.joules += e.V // a reset: the counter restarted from 0
			}
		}
		a.prevEnergy = e
		a.energyPts++
	}
	if len(gg.Xids) > 0 {
		a.xid = true
	}
	if e := gg.ECCUncorrected; e.OK {
		if a.prevECC.OK && e.V > a.prevECC.V {
			a.ecc = true
		}
		a.prevECC = e
	}
	if now.Sub(at) <= fleetsnap.MeanWindow {
		if gg.Util.OK {
			a.utilSum, a.utilN = a.utilSum+gg.Util.V, a.utilN+1
		}
		if gg.SMActive.OK {
			a.smSum, a.smN = a.smSum+gg.SMActive.V, a.smN+1
		}
	}
	held := idleHeld(gg)
	gap := !a.prevAt.IsZero() && at.Sub(a.prevAt) > maxGap
	if a.idleHeldNow && !gap {
		a.idleHeldHours += at.Sub(a.prevAt).Hours()
	}
	if !held || gap || a.longFrom.IsZero() {
		a.longFrom = time.Time{}
		if held {
			a.longFrom = at
		}
	}
	a.idleHeldNow, a.prevAt = held, at
}

func (a *figureAcc) finish(g *fleetsnap.GPU, now time.Time, opts Options) {
	g.Xid = g.Xid || a.xid
	g.ECC = g.ECC || a.ecc
	g.IdleHeldHours += a.idleHeldHours
	if !a.seen {
		return
	}
	watchedLong := !a.longFrom.IsZero() && now.Sub(a.longFrom) >= time.Duration(0.9*float64(opts.IdleFor))
	g.IdleHeldLong = a.idleHeldNow && watchedLong
	g.Util, g.MemUsed, g.MemTotal, g.Power = a.util, a.memUsed, a.memTotal, a.power
	if g.Model == "" {
		g.Model = a.model
	}
	if a.energyPts >= 2 {
		g.EnergyKWh = sampler.Some(a.joules / joulesPerKWh)
	}
	if a.utilN > 0 {
		g.UtilMean = sampler.Some(a.utilSum / float64(a.utilN))
	}
	if a.smN > 0 {
		g.SMActiveMean = sampler.Some(a.smSum / float64(a.smN))
	}
}

// idleHeld is Source.idleHeld's test on one reading: idle (util < 10%)
// while holding ≥ 10% of memory (diagnose/rule_memory.go).
func idleHeld(g *sampler.GPU) bool {
	return g.Util.OK && g.Util.V < 10 && g.MemUsed.OK && g.MemTotal.OK && g.MemTotal.V > 0 && g.MemUsed.V/g.MemTotal.V >= 0.1
}
