package pipeline

import (
	"slices"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/node"
)

// snapshots are 4 minutes of the mixed demo at interval, pre-sampled so the
// benchmarks time the diagnosis alone.
func snapshots(b *testing.B, interval time.Duration) []sampler.Snapshot {
	b.Helper()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d, err := node.NewDemo("mixed", 1, start)
	if err != nil {
		b.Fatal(err)
	}
	s := d.Sampler("mixed")
	var out []sampler.Snapshot
	for t := start; t.Before(start.Add(4 * time.Minute)); t = t.Add(interval) {
		out = append(out, s.Tick(t))
	}
	return out
}

// BenchmarkDiagnosisPerTick100ms is what the dashboard did before the
// collector, per snapshot at --interval 100ms: evaluate the window, then the
// selected GPU's three levels and checklist, on every tick.
func BenchmarkDiagnosisPerTick100ms(b *testing.B) { benchPerTick(b, 100*time.Millisecond) }

// BenchmarkDiagnosisPerTick1s is the same at the default interval.
func BenchmarkDiagnosisPerTick1s(b *testing.B) { benchPerTick(b, time.Second) }

func benchPerTick(b *testing.B, interval time.Duration) {
	snaps := snapshots(b, interval)
	var hist diagnose.History
	e := diagnose.NewEngine(diagnose.Options{})
	i := 0
	b.ResetTimer()
	for b.Loop() {
		w := hist.Push(snaps[i%len(snaps)])
		fs := e.Evaluate(w)
		_ = diagnose.ThreeLevels(w, 0)
		_ = diagnose.Checklist(w, diagnose.ForGPU(fs, 0))
		i++
		if i%len(snaps) == 0 {
			hist.Reset()
			e = diagnose.NewEngine(diagnose.Options{})
		}
	}
}

// BenchmarkCollectorPush100ms is the collector's cost per snapshot at
// --interval 100ms: the rules, every GPU's levels and checklists, at most
// once a second.
func BenchmarkCollectorPush100ms(b *testing.B) { benchPush(b, 100*time.Millisecond) }

// BenchmarkCollectorPush1s is the same at the default interval.
func BenchmarkCollectorPush1s(b *testing.B) { benchPush(b, time.Second) }

func benchPush(b *testing.B, interval time.Duration) {
	snaps := snapshots(b, interval)
	col := New(&sampler.Sampler{}, Options{})
	i := 0
	b.ResetTimer()
	for b.Loop() {
		col.Push(snaps[i%len(snaps)])
		i++
		if i%len(snaps) == 0 {
			col = New(&sampler.Sampler{}, Options{})
		}
	}
}

// BenchmarkPreroll120 is the demo's pre-roll: two minutes of snapshots
// before the first screen, the levels and checklists for the last only.
func BenchmarkPreroll120(b *testing.B) {
	snaps := snapshots(b, time.Second)[:120]
	for b.Loop() {
		New(&sampler.Sampler{}, Options{}).Preroll(slices.Clone(snaps), func(diagnose.Frame) {}) // handed over
	}
}

// BenchmarkPushHistory120 is the same history pushed one by one, as the
// pre-roll was before Preroll.
func BenchmarkPushHistory120(b *testing.B) {
	snaps := snapshots(b, time.Second)[:120]
	for b.Loop() {
		col := New(&sampler.Sampler{}, Options{})
		for _, s := range snaps {
			col.Push(s)
		}
	}
}

// BenchmarkHoursAdd is what the dashboard adds to each frame for the GPU
// page's GPU-hours (ui.Model.Push: diagnose.Hours.Add, HeldBy's look at
// each GPU's processes), per snapshot of the mixed demo's 8 GPUs.
func BenchmarkHoursAdd(b *testing.B) {
	snaps := snapshots(b, time.Second)
	var h diagnose.Hours
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		h.Add(&snaps[i%len(snaps)])
		i++
		if i%len(snaps) == 0 {
			h = diagnose.Hours{}
		}
	}
}
