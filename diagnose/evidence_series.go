package diagnose

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Series thresholds: GPU-Util at or below evLow is a gap, at or above
// evHigh a burst; a swing needs both on at least evSwingShare of the
// samples (a fifth each, so a steady load with one odd reading
// stays silent). [gpu-idle-pipeline] §3.1: GPU-Util swinging between low and high is
// periodic waiting on input or on sync.
const (
	evLow        = 10.0
	evHigh       = 60.0
	evSwingShare = 0.2
)

// series judges patterns over a short series (≥ evSeriesMin samples).
func (e *evCtx) series() {
	span := e.last.Time.Sub(e.snaps[0].Time)
	conf := e.seriesConfidence(span)
	for i := range e.last.GPUs {
		g := &e.last.GPUs[i]
		var util []float64
		held, heldMin := true, 0.0
		for j := range e.snaps {
			x := gpuIn(&e.snaps[j], g.Index)
			if x == nil {
				continue
			}
			if x.Util.OK {
				util = append(util, x.Util.V)
			}
			if !idleHolding(x) {
				held = false
			} else if heldMin == 0 || x.MemUsed.V < heldMin {
				heldMin = x.MemUsed.V
			}
		}
		if len(util) < evSeriesMin || g.MIG || codecBusy(g) {
			continue
		}
		low, high := 0, 0
		for _, u := range util {
			if u <= evLow {
				low++
			}
			if u >= evHigh {
				high++
			}
		}
		n := float64(len(util))
		if float64(low) >= evSwingShare*n && float64(high) >= evSwingShare*n {
			e.add(RuleHostWait, Warning, g.Index, say("series.swing_title", "GPU {{.GPU}} GPU-Util swings between idle and busy", "GPU", g.Index),
				Text{say("series.swing", "{{.Low}} of {{.N}} {{plural .N \"sample\" \"samples\"}} at ≤ {{.LowPct}}%, {{.High}} at ≥ {{.HighPct}}%: the GPU waits periodically, on input or on a host sync",
					"Low", low, "N", len(util), "LowPct", f0(evLow), "High", high, "HighPct", f0(evHigh))},
				hintSwing, append(conf, say("series.no_host", "no host data, so input and sync cannot be told apart here")), Use{g.Index, "util"})
		}
		if held && len(util) == len(e.snaps) {
			ev := Text{say("series.idle_held", "GPU-Util 0% in all {{.N}} {{plural .N \"sample\" \"samples\"}} while at least {{.Held}} is held", "N", len(util), "Held", gbytes(heldMin))}
			title := say("evidence.idle_held_title", "GPU {{.GPU}} idle while holding {{.Held}}", "GPU", g.Index, "Held", gbytes(heldMin))
			if busy := seriesBusyOthers(e.snaps, g.Index); busy != "" {
				ev = append(ev, say("series.busy_others", "{{.GPUs}} busy meanwhile: the job holds more GPUs than it uses", "GPUs", busy))
			}
			e.add(RuleMemoryIdleHeld, Warning, g.Index, title, ev, hintIdleHeld, conf, Use{g.Index, "util"}, Use{g.Index, "mem_used"})
		}
	}
}

func (e *evCtx) seriesConfidence(span time.Duration) Text {
	t := Text{say("series.span", "{{.Span}} of data ({{.N}} {{plural .N \"sample\" \"samples\"}})", "Span", span.Round(time.Second).String(), "N", len(e.snaps))}
	if span >= evConfirm {
		return t
	}
	return append(t, say("series.would_confirm", "{{.Span}} would confirm", "Span", evConfirm.String()))
}

// seriesBusyOthers lists the other GPUs whose mean GPU-Util is ≥ evBusyUtil.
func seriesBusyOthers(snaps []sampler.Snapshot, self int) string {
	sum, cnt := map[int]float64{}, map[int]int{}
	var order []int
	for i := range snaps {
		for j := range snaps[i].GPUs {
			g := &snaps[i].GPUs[j]
			if g.Index == self || !g.Util.OK {
				continue
			}
			if cnt[g.Index] == 0 {
				order = append(order, g.Index)
			}
			sum[g.Index] += g.Util.V
			cnt[g.Index]++
		}
	}
	var ids []int
	for _, i := range order {
		if sum[i]/float64(cnt[i]) >= evBusyUtil {
			ids = append(ids, i)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return "GPU " + joinInts(ids)
}
