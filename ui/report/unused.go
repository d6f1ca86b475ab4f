package report

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// unusedRun is the end of the run of unused GPUs of one model starting at
// i (summary.Report.Unused): two or more are said in one line, not a block
// of zeros each.
func unusedRun(r *summary.Report, i int) int {
	j := i
	for j < len(r.GPUs) && r.Unused(&r.GPUs[j]) && r.GPUs[j].Name == r.GPUs[i].Name {
		j++
	}
	return j
}

// unusedLine is "GPUs 1-7  NVIDIA H200  unused throughout: GPU-Util 0%, no
// memory held, power 76-80 W, 0.0273 kWh".
func (l words) unusedLine(gs []summary.GPU) string {
	idx := make([]int, len(gs))
	lo, hi, kwhSum, kwhOK := 0.0, 0.0, 0.0, true
	for i, g := range gs {
		idx[i] = g.Index
		if g.PowerMean.OK && (i == 0 || g.PowerMean.V < lo) {
			lo = g.PowerMean.V
		}
		hi = max(hi, g.PowerMean.Or(0))
		kwhSum += g.EnergyKWh.Or(0)
		kwhOK = kwhOK && g.EnergyKWh.OK
	}
	power := units.Spaced.Watts(sampler.Some(lo))
	if fmt.Sprintf("%.0f", lo) != fmt.Sprintf("%.0f", hi) {
		power = fmt.Sprintf("%.0f-%s", lo, units.Spaced.Watts(sampler.Some(hi)))
	}
	energy := na
	if kwhOK {
		energy = kwh(sampler.Some(kwhSum))
	}
	return l.t("unused_gpus", "GPUs", indexRanges(idx), "Name", orNA(gs[0].Name), "Power", power, "Energy", energy)
}

// indexRanges is "1-3, 5, 7-9".
func indexRanges(idx []int) string {
	var parts []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", idx[i], idx[j]))
		} else {
			parts = append(parts, fmt.Sprint(idx[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
