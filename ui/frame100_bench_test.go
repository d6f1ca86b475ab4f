package ui

import (
	"os"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/benchtest"
	"github.com/muesli/termenv"
)

// BenchmarkFrame100ms is one frame of the dashboard at --interval 100ms,
// 200×50 in colour: a snapshot pushed whose GPU figures moved, with the
// host reading and the diagnosis of the snapshot before (both change once
// a second), the view drawn and written through the Painter and the
// TermWriter to /dev/null. Ten of these are a second of watching
// (docs/benchmarks.md, "The dashboard at 100 ms, again").
func BenchmarkFrame100ms(b *testing.B) {
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	m, _ := fixtureModel(600, 200, 50)
	d := &fakeDiagnoser{findings: fixtureFindings()}
	base := fixtureSnapshot(600)
	f := d.frame(m, base)
	m = m.Push(f)
	ps := &paintState{out: NewTermWriter(null), w: 200, h: 50}
	ps.flushLines(m.ViewLines())
	i := 0
	b.ReportAllocs()
	cpu0 := benchtest.ProcessCPU(b)
	for b.Loop() {
		i++
		s := base
		s.Time, s.Seq = base.Time.Add(time.Duration(i)*100*time.Millisecond), base.Seq+uint64(i)
		s.GPUs = append([]sampler.GPU(nil), base.GPUs...)
		for g := range s.GPUs {
			s.GPUs[g].Power = sampler.Some(base.GPUs[g].Power.V + float64(i%7))
			s.GPUs[g].PCIeRx = sampler.Some(base.GPUs[g].PCIeRx.V * (1 + float64(i%5)/100))
			s.GPUs[g].Util = sampler.Some(float64((i/3 + g*13) % 101))
		}
		if i%10 == 0 { // a new diagnosis once a second
			f = d.frame(m, s)
		}
		m = m.Push(diagnose.Frame{Snapshot: s, Diagnosis: f.Diagnosis})
		ps.flushLines(m.ViewLines())
	}
	// CPU time (GC's included), not wall time: the neighbours' share of a
	// loaded machine is no cost of the frame.
	b.ReportMetric(float64(benchtest.ProcessCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}
