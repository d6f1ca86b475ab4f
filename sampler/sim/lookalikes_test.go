package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// The look-alikes are what their summaries say (docs/diagnosis-accuracy.md
// quotes them): checked on the truth, over several seeds, after a minute.
func TestLookalikesMatchTheirSummaries(t *testing.T) {
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	for seed := int64(1); seed <= 5; seed++ {
		_, fr := run(t, "lookalike_warm_gpu", seed, 3*time.Minute, time.Second)
		for _, f := range fr[60:] {
			g := f.gpus[0]
			if g.Temp.V < 76 || g.Temp.V > 84 || g.ClockEvents.Has(sampler.ClockSwThermal|sampler.ClockHwThermal) {
				t.Fatalf("warm GPU seed %d: %v °C, events %#x: want 78-84 °C, no thermal slowdown", seed, g.Temp.V, g.ClockEvents.Mask)
			}
		}
		_, fr = run(t, "lookalike_encode_only", seed, 2*time.Minute, time.Second)
		util := series(fr[60:], 0, func(g sampler.GPU) float64 { return g.Util.V })
		enc := series(fr[60:], 0, func(g sampler.GPU) float64 { return g.EncUtil.V })
		if u, e := mean(util), mean(enc); u >= 10 || e < 55 || e > 90 {
			t.Errorf("encode-only seed %d: util mean %.0f, encoder mean %.0f", seed, u, e)
		}
		_, fr = run(t, "lookalike_busy_loader", seed, 2*time.Minute, time.Second)
		if u := mean(series(fr[60:], 0, func(g sampler.GPU) float64 { return g.Util.V })); u < 90 {
			t.Errorf("busy loader seed %d: util mean %.0f, want the GPU fed (≥ 90)", seed, u)
		}
		busy := 0
		for _, p := range fr[len(fr)-1].host.Procs {
			if strings.Contains(p.Cmdline, "heavyaug") && p.CPU.V >= 85 {
				busy++
			}
		}
		if busy < 8 {
			t.Errorf("busy loader seed %d: %d processes near a full core, want the 8 workers", seed, busy)
		}
		_, fr = run(t, "lookalike_bursty_inference", seed, 2*time.Minute, time.Second)
		if u := mean(series(fr[60:], 0, func(g sampler.GPU) float64 { return g.Util.V })); u < 70 || u > 95 {
			t.Errorf("bursty inference seed %d: util mean %.0f, want busy ~85%%", seed, u)
		}
		_, fr = run(t, "lookalike_small_batch_dense", seed, 2*time.Minute, time.Second)
		if sm := mean(series(fr[60:], 0, func(g sampler.GPU) float64 { return g.SMActive.V })); sm < 65 || sm > 85 {
			t.Errorf("small batch seed %d: SM active mean %.0f, want 70-80", seed, sm)
		}
		_, fr = run(t, "lookalike_two_jobs_quiet", seed, 2*time.Minute, time.Second)
		last := fr[len(fr)-1].gpus
		if len(last[0].Procs) != 2 {
			t.Errorf("two jobs seed %d: %d processes on GPU 0", seed, len(last[0].Procs))
		}
		for g := 1; g < len(last); g++ {
			if len(last[g].Procs) == 0 {
				t.Errorf("two jobs seed %d: GPU %d empty, want every GPU busy", seed, g)
			}
		}
	}
}

// Look-alikes run by id but are not listed as demo scenarios.
func TestLookalikesAreUnlisted(t *testing.T) {
	for _, la := range Lookalikes() {
		if _, err := New(la.ID, 1, t0); err != nil {
			t.Errorf("%s: %v", la.ID, err)
		}
		for _, sc := range Scenarios() {
			if sc.ID == la.ID {
				t.Errorf("%s listed among the demo scenarios", la.ID)
			}
		}
	}
}
