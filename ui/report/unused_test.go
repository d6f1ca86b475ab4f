package report

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// GPUs with nothing to report share one line in the text report; a GPU
// with a finding, or one that held memory, keeps its block.
func TestUnusedGPUsShareOneLine(t *testing.T) {
	idle := func(i int, w float64) summary.GPU {
		return summary.GPU{Index: i, Name: "NVIDIA H200", Samples: 60, Util: &summary.Dist{Samples: 60},
			MemPeak: sampler.Some(4 << 20), PowerMean: sampler.Some(w), EnergyKWh: sampler.Some(0.001), ThrottledSeconds: sampler.Some(0)}
	}
	busy := idle(0, 400)
	busy.Util = &summary.Dist{Mean: 80, P95: 99, Samples: 60}
	held := idle(4, 80)
	held.MemPeak = sampler.Some(30 << 30)
	r := &summary.Report{GPUs: []summary.GPU{busy, idle(1, 76), idle(2, 79), idle(3, 78), held, idle(5, 77), idle(6, 75)},
		Findings: []summary.Finding{{Rule: "memory_idle_held", GPU: 5}}}
	var b strings.Builder
	if err := In(i18n.For("en")).Text(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "GPUs 1-3  NVIDIA H200  unused throughout: GPU-Util 0%, no memory held, no finding; power 76-79 W, 0.003 kWh") {
		t.Errorf("GPUs 1-3 not in one line:\n%s", out)
	}
	for _, block := range []string{"\nGPU 0  ", "\nGPU 4  ", "\nGPU 5  ", "\nGPU 6  "} {
		if !strings.Contains(out, block) {
			t.Errorf("no block %q (busy, memory held, a finding, a lone unused GPU):\n%s", block, out)
		}
	}
	if strings.Contains(out, "\nGPU 1  ") || strings.Contains(out, "\nGPU 2  ") {
		t.Errorf("an unused GPU kept its block:\n%s", out)
	}
}
