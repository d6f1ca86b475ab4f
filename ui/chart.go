package ui

import (
	"fmt"
	"strings"
	"time"

	tslc "github.com/NimbleMarkets/ntcharts/linechart/timeserieslinechart"
	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/sampler"
)

// chartSeries is one line of a chart: a reading per snapshot.
type chartSeries struct {
	name  string
	style lipgloss.Style
	get   func(g *sampler.GPU) sampler.Metric
	// pid and fig name a process's figure instead (procviewcharts.go),
	// where get is nil.
	pid, fig int
}

// value is the series' reading at history entry i for GPU gpu (n/a where
// the entry lacks it); scratch holds a point's figures (history.gpu).
func (se chartSeries) value(h *history, i, gpu int, scratch *sampler.GPU) sampler.Metric {
	if se.get == nil {
		return h.proc(i, se.pid, se.fig)
	}
	if g := h.gpu(i, gpu, scratch); g != nil {
		return se.get(g)
	}
	return sampler.Metric{}
}

// chartSpec is one time-series chart of the GPU detail view.
type chartSpec struct {
	title  string
	unit   string
	scale  float64 // divide readings by this (bytes → GiB ...)
	series []chartSeries
	// top is the y-axis maximum for the newest snapshot (a limit, a max
	// clock, a link's capacity); 0 lets the data set it.
	top func(g *sampler.GPU) float64
	// na says why the chart cannot be drawn, "" when it can.
	na string
	// note is a muted line under the title (a missing overlay, a limit).
	note string
}

// drawChart renders spec over the GPU's history with ntcharts' braille
// time-series line chart, w×h cells including the title line.
func drawChart(c *common, gpu int, spec chartSpec, w, h int) []string {
	st := c.st
	head := st.Bold.Render(spec.title)
	if spec.unit != "" {
		head += st.Muted.Render(" (" + spec.unit + ")")
	}
	var legend []string
	if len(spec.series) > 1 {
		for _, s := range spec.series {
			legend = append(legend, s.style.Render("━ "+s.name))
		}
	}
	lines := []string{truncate(head+"  "+strings.Join(legend, " "), w)}
	if spec.note != "" {
		lines = append(lines, truncate(st.Muted.Render(spec.note), w))
	}
	if spec.na != "" {
		lines = append(lines, st.Muted.Render(truncate(c.word("chart.na")+spec.na, w)))
		return padLines(lines, h)
	}
	ch := max(3, h-len(lines))
	scale := spec.scale
	if scale == 0 {
		scale = 1
	}
	n := c.hist.len()
	first := max(0, n-maxChartPoints)
	if n == 0 {
		return padLines(append(lines, st.Muted.Render(c.word("chart.no_data"))), h)
	}
	t0, t1 := c.hist.time(first), c.hist.time(n-1)
	if !t1.After(t0) {
		t1 = t0.Add(time.Second)
	}
	top := 0.0
	switch {
	case spec.top == nil:
	case gpu < 0: // a chart of a process: its top is a constant
		top = spec.top(nil) / scale
	case gpu < len(c.hist.last().GPUs):
		top = spec.top(&c.hist.last().GPUs[gpu]) / scale
	}
	var scratch sampler.GPU
	for i := first; i < n; i++ {
		for _, se := range spec.series {
			if m := se.value(c.hist, i, gpu, &scratch); m.OK {
				top = max(top, m.V/scale)
			}
		}
	}
	if top <= 0 {
		top = 1
	}
	m := tslc.New(w, ch,
		tslc.WithTimeRange(t0, t1), tslc.WithYRange(0, top*1.05),
		tslc.WithXYSteps(2, 2),
		tslc.WithXLabelFormatter(func(_ int, v float64) string { return time.Unix(int64(v), 0).UTC().Format("15:04:05") }),
		tslc.WithYLabelFormatter(func(_ int, v float64) string { return fmtAxis(v) }),
		tslc.WithAxesStyles(st.Border, st.Muted),
	)
	// The ranges are set above from all the data: auto-ranging would rescale
	// every data set on each point pushed.
	m.AutoMinX, m.AutoMaxX, m.AutoMinY, m.AutoMaxY = false, false, false, false
	m.SetViewTimeAndYRange(t0, t1, 0, top*1.05)
	names := make([]string, 0, len(spec.series))
	for _, se := range spec.series {
		names = append(names, se.name)
		m.SetDataSetStyle(se.name, se.style)
		for i := first; i < n; i++ {
			if v := se.value(c.hist, i, gpu, &scratch); v.OK {
				m.PushDataSet(se.name, tslc.TimePoint{Time: c.hist.time(i), Value: v.V / scale})
			}
		}
	}
	m.DrawBrailleDataSets(names)
	return padLines(append(lines, strings.Split(m.View(), "\n")...), h)
}

// maxChartPoints bounds the history a chart reads (a 200-column
// screen's widest chart has ~130 braille columns of 2 points each).
const maxChartPoints = 300

// fmtAxis is a compact axis label: "0", "12", "1.5", "1.2k".
func fmtAxis(v float64) string {
	switch {
	case v >= 10000:
		return fmt.Sprintf("%.0fk", v/1000)
	case v >= 1000:
		return fmt.Sprintf("%.1fk", v/1000)
	case v >= 10 || v == 0:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func padLines(lines []string, h int) []string {
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines[:h]
}
