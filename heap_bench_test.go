package main

import (
	"runtime"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/pipeline"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// BenchmarkDashboardHeap is the heap the demo dashboard holds, as
// `gpuscope --demo` builds it (the two minutes' pre-roll, the collector,
// the model at 200×50), after 40 s and after 5 minutes of 1 s ticks: the
// Go heap live after a collection, which the runtime doubles into its goal
// and so into the process's anonymous RSS (docs/benchmarks.md, "The
// dashboard's memory: the history as figures"). Package initialisation is
// not counted.
func BenchmarkDashboardHeap(b *testing.B) {
	for b.Loop() {
		atStart, at40, at300 := dashboardHeap(b)
		b.ReportMetric(float64(atStart)/1024, "KB-at-start")
		b.ReportMetric(float64(at40)/1024, "KB-at-40s")
		b.ReportMetric(float64(at300)/1024, "KB-at-5m")
	}
}

func heapLive() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// atStart is the heap live as the pre-roll's last frame is pushed, the
// start's peak (docs/benchmarks.md, "The dashboard's memory: the peak").
func dashboardHeap(b *testing.B) (atStart, at40, at300 uint64) {
	base := heapLive()
	start := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	s, err := openDemo("mixed", 1, start, nil)
	if err != nil {
		b.Fatal(err)
	}
	st, err := themes.Build("", true)
	if err != nil {
		b.Fatal(err)
	}
	col := pipeline.New(s, pipeline.Options{})
	opts := ui.DefaultOptions(st, "DEMO", time.Second)
	opts.Tr = i18n.For("en")
	var tm tea.Model = ui.New(opts)
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	m := tm.(ui.Model)
	now := start.Add(2 * time.Minute)
	snaps := sampler.Preroll(s, start, now, time.Second)
	pushed := 0
	col.Preroll(snaps, func(f diagnose.Frame) {
		m = m.Push(f)
		if pushed++; pushed == len(snaps) {
			atStart = heapLive() - base
		}
	})
	for i := 1; i <= 300; i++ {
		now = now.Add(time.Second)
		m = m.Push(col.Push(s.Tick(now)))
		_ = m.View()
		switch i {
		case 40:
			at40 = heapLive() - base
		case 300:
			at300 = heapLive() - base
		}
	}
	runtime.KeepAlive(m)
	return atStart, at40, at300
}
