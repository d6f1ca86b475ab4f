package report

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/diagnose/summary/summarytest"
)

func TestNiceStep(t *testing.T) {
	for raw, want := range map[float64]float64{0.3: 0.5, 0.8: 1, 1: 1, 1.4: 2, 3: 5, 7: 10, 12: 20, 45: 50, 0: 1} {
		if got := niceStep(raw); got != want {
			t.Errorf("niceStep(%g) = %g, want %g", raw, got, want)
		}
	}
}

var svgPoint = regexp.MustCompile(`(\d+\.\d),(\d+\.\d)`)

// TestChartStaysInItsPlot: every line point lies inside the plot area
// (values above 100 % or below 0 are clipped to its edges), and a band's
// label is escaped.
func TestChartStaysInItsPlot(t *testing.T) {
	r := build(t, &summarytest.Synth{N: 600, GPUs: 1}, summary.Options{})
	s := r.GPUs[0].Chart
	if s.Empty() {
		t.Fatal("no chart series in the synthetic report")
	}
	bands := []chartBand{{from: 1, to: 2, label: "critical: <x>", color: bandColors[diagnose.Critical]}}
	out, err := svgChart(s, bands)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(out)
	if !strings.HasPrefix(svg, "<svg ") || !strings.HasSuffix(svg, "</svg>") {
		t.Errorf("not one inline <svg> element: %.60q…", svg)
	}
	if strings.Contains(svg, "<x>") || !strings.Contains(svg, "critical: &lt;x&gt;") {
		t.Error("band label not escaped")
	}
	pts := svgPoint.FindAllStringSubmatch(svg, -1)
	if len(pts) < 10 {
		t.Fatalf("%d line points drawn", len(pts))
	}
	for _, p := range pts {
		x, _ := strconv.ParseFloat(p[1], 64)
		y, _ := strconv.ParseFloat(p[2], 64)
		if x < plotLeft-0.1 || x > plotRight+0.1 || y < plotTop-0.1 || y > plotBottom+0.1 {
			t.Errorf("point (%g, %g) outside the plot [%g..%g]×[%g..%g]", x, y, plotLeft, plotRight, plotTop, plotBottom)
		}
	}
}
