package ui

import (
	"reflect"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// everyMetric sets each Metric field of g to a value of its own (n/a, with
// a value still, for every third), so a chart reading a field the history
// does not keep reads another value from the point than from the snapshot.
func everyMetric(g *sampler.GPU, seed int) {
	v := reflect.ValueOf(g).Elem()
	metric := reflect.TypeFor[sampler.Metric]()
	for i := range v.NumField() {
		if f := v.Field(i); f.Type() == metric {
			f.Set(reflect.ValueOf(sampler.Metric{V: float64(seed*100 + i + 1), OK: (seed+i)%3 != 0}))
		}
	}
	g.ClockEvents = sampler.ClockEvents{Mask: uint64(seed), OK: seed%4 != 0}
}

// TestHistoryKeepsWhatChartsRead: every series of every GPU chart, the
// clock strip and the sparklines read the same from the history as from
// the snapshots pushed, from points (keep shorter than the history) and
// from whole snapshots, for GPUs with each reading present, absent (n/a)
// and different.
func TestHistoryKeepsWhatChartsRead(t *testing.T) {
	m, _ := fixtureModel(1, 200, 50)
	c := m.c
	for _, keep := range []time.Duration{time.Nanosecond, 4 * time.Second} {
		h := newHistory(0, keep)
		var snaps []sampler.Snapshot
		for i := range 12 {
			s := fixtureSnapshot(i)
			for gi := range s.GPUs {
				everyMetric(&s.GPUs[gi], i*8+gi)
			}
			h.push(s)
			snaps = append(snaps, s)
		}
		if h.len() != len(snaps) || len(h.pts) == 0 || len(h.full) == 0 {
			t.Fatalf("keep %s: %d points and %d snapshots for %d snapshots", keep, len(h.pts), len(h.full), len(snaps))
		}
		series := 0
		for i, s := range snaps {
			if !h.time(i).Equal(s.Time) || h.seq(i) != s.Seq {
				t.Fatalf("keep %s, entry %d: %v #%d, snapshot %v #%d", keep, i, h.time(i), h.seq(i), s.Time, s.Seq)
			}
			for gi := range s.GPUs {
				g := &s.GPUs[gi]
				var scratch sampler.GPU
				for _, spec := range gpuCharts(c, g) {
					for _, se := range spec.series {
						series++
						if got, want := se.value(h, i, gi, &scratch), se.get(g); got != want {
							t.Errorf("keep %s, entry %d GPU %d %q %q: %+v from the history, %+v from the snapshot", keep, i, gi, spec.title, se.name, got, want)
						}
					}
				}
				if hg := h.gpu(i, gi, &scratch); hg == nil || hg.ClockEvents != g.ClockEvents || hg.Util != g.Util || hg.MemUsed != g.MemUsed || hg.MemTotal != g.MemTotal {
					t.Errorf("keep %s, entry %d GPU %d: the clock strip's and sparklines' readings %+v, snapshot's %+v", keep, i, gi, hg, g)
				}
			}
			var scratch sampler.GPU
			if h.gpu(i, len(s.GPUs), &scratch) != nil || h.gpu(i, -1, &scratch) != nil {
				t.Errorf("keep %s, entry %d: a GPU past the snapshot's", keep, i)
			}
		}
		if series < 12*8*10 {
			t.Errorf("only %d series compared", series)
		}
	}
}

// snapshotProcFigures is what the process page charted before the history
// kept figures: each series read from the whole snapshot.
func snapshotProcFigures(s *sampler.Snapshot, pid int) [procFigures]sampler.Metric {
	onGPUs := func(get func(p *sampler.GPUProc) sampler.Metric, mean bool) sampler.Metric {
		sum, n := 0.0, 0
		for gi := range s.GPUs {
			for pi := range s.GPUs[gi].Procs {
				if pr := &s.GPUs[gi].Procs[pi]; pr.PID == pid {
					if m := get(pr); m.OK {
						sum, n = sum+m.V, n+1
					}
				}
			}
		}
		if n == 0 {
			return sampler.Metric{}
		}
		if mean {
			sum /= float64(n)
		}
		return sampler.Some(sum)
	}
	own := func(get func(h *sampler.Proc) sampler.Metric) sampler.Metric {
		if _, h := procIn(s, pid); h != nil {
			return get(h)
		}
		return sampler.Metric{}
	}
	workers := func(get func(h *sampler.Proc) sampler.Metric) sampler.Metric {
		_, h := procIn(s, pid)
		if h == nil || len(h.Children) == 0 || s.Host == nil {
			return sampler.Metric{}
		}
		sum, n := 0.0, 0
		for _, k := range h.Children {
			if kp := s.Host.Procs[k]; kp != nil {
				if m := get(kp); m.OK {
					sum, n = sum+m.V, n+1
				}
			}
		}
		if n == 0 {
			return sampler.Metric{}
		}
		return sampler.Some(sum)
	}
	cpu := func(h *sampler.Proc) sampler.Metric { return h.CPU }
	rss := func(h *sampler.Proc) sampler.Metric { return h.RSS }
	return [procFigures]sampler.Metric{
		procGPUMem:     onGPUs(func(p *sampler.GPUProc) sampler.Metric { return p.MemUsed }, false),
		procSM:         onGPUs(func(p *sampler.GPUProc) sampler.Metric { return p.SMUtil }, true),
		procCPU:        own(cpu),
		procCPUWorkers: workers(cpu),
		procRSS:        own(rss),
		procRSSWorkers: workers(rss),
	}
}

// TestHistoryProcFiguresAreTheSnapshots: the process page's series read
// from the history equal what they read from whole snapshots, for every
// PID on a GPU or the host (one on two GPUs, workers, an n/a reading, a
// worker gone, a PID only on the host, one whose host record only its GPU
// entry holds), and n/a for a PID not there.
func TestHistoryProcFiguresAreTheSnapshots(t *testing.T) {
	m, _ := fixtureModel(1, 200, 50)
	for _, keep := range []time.Duration{time.Nanosecond, 3 * time.Second} {
		procFiguresAreTheSnapshots(t, m, keep)
	}
}

func procFiguresAreTheSnapshots(t *testing.T, m Model, keep time.Duration) {
	h := newHistory(0, keep)
	var snaps []sampler.Snapshot
	for i := range 6 {
		s := fixtureSnapshot(i)
		if i%2 == 1 {
			s.GPUs[0].Procs = append(s.GPUs[0].Procs, sampler.GPUProc{PID: 6100, MemUsed: sampler.Some(float64(i) * gib), SMUtil: sampler.Some(33)})
			// Seen through NVML with a host record the host's map lacks.
			s.GPUs[1].Procs = append(s.GPUs[1].Procs, sampler.GPUProc{PID: 8100, SMUtil: sampler.Some(5),
				Host: &sampler.Proc{PID: 8100, CPU: sampler.Some(12), RSS: sampler.Some(gib), Children: []int{2101, 2105}}})
			s.Host.Procs[2103].CPU = sampler.Metric{V: 7}
			delete(s.Host.Procs, 2105)
		}
		h.push(s)
		snaps = append(snaps, s)
	}
	pids := map[int]bool{999999: true}
	for _, s := range snaps {
		for pid := range s.Host.Procs {
			pids[pid] = true
		}
		for _, g := range s.GPUs {
			for _, p := range g.Procs {
				pids[p.PID] = true
			}
		}
	}
	var scratch sampler.GPU
	for pid := range pids {
		specs := procCharts(m.c, pid)
		for i := range snaps {
			want := snapshotProcFigures(&snaps[i], pid)
			for _, spec := range specs {
				for _, se := range spec.series {
					if got := se.value(h, i, -1, &scratch); got != want[se.fig] {
						t.Errorf("keep %s, PID %d entry %d %q %q: %+v from the history, %+v from the snapshot", keep, pid, i, spec.title, se.name, got, want[se.fig])
					}
				}
			}
		}
	}
}

// TestHistoryHoldsNoSnapshotBeyondTheWindow: past the node balance's
// window only figures stay.
func TestHistoryHoldsNoSnapshotBeyondTheWindow(t *testing.T) {
	h := newHistory(historySpan, 2*time.Minute)
	for i := range 700 {
		s := fixtureSnapshot(i)
		h.push(s)
	}
	if n := len(h.full); n != 121 {
		t.Errorf("%d whole snapshots kept, want the 121 of the 2-minute window", n)
	}
	if h.len() != 300 || len(h.pts) != 179 || h.seq(0) != 401 || h.last().Seq != 700 {
		t.Errorf("%d entries (%d points) from #%d to #%d, want 300 (179) from 401 to 700", h.len(), len(h.pts), h.seq(0), h.last().Seq)
	}
	if w := h.since(time.Minute); len(w) != 61 || w[0].Seq != 640 {
		t.Errorf("since(1m) = %d snapshots from #%d, want 61 from 640", len(w), w[0].Seq)
	}
}

// TestHistoryPointsHoldNoPointers: a point's per-GPU and per-PID values
// are fixed-size, so nothing of a snapshot (strings, maps, process
// records) stays reachable from the history once it leaves the window.
func TestHistoryPointsHoldNoPointers(t *testing.T) {
	var check func(path string, ty reflect.Type)
	check = func(path string, ty reflect.Type) {
		switch ty.Kind() {
		case reflect.Struct:
			for i := range ty.NumField() {
				check(path+"."+ty.Field(i).Name, ty.Field(i).Type)
			}
		case reflect.Array:
			if ty.Len() > 0 {
				check(path+"[]", ty.Elem())
			}
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.String, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
			t.Errorf("%s is a %s", path, ty.Kind())
		}
	}
	check("gpuPoint", reflect.TypeFor[gpuPoint]())
	check("procPoint", reflect.TypeFor[procPoint]())
}

// TestHistoryWindowHoldsHostsAsFigures: of the whole snapshots, only the
// newest keeps its host's process table and cores; the older keep the
// host's scalars (and the processes as figures, which
// TestHistoryProcFiguresAreTheSnapshots reads), the snapshot pushed is not
// changed.
func TestHistoryWindowHoldsHostsAsFigures(t *testing.T) {
	h := newHistory(historySpan, 2*time.Minute)
	var snaps []sampler.Snapshot
	for i := range 130 {
		s := fixtureSnapshot(i)
		s.Host.CPUs = []float64{1, 2}
		h.push(s)
		snaps = append(snaps, s)
	}
	for k, s := range h.full {
		newest := k == len(h.full)-1
		if s.Host == nil || (s.Host.Procs != nil) != newest || (s.Host.CPUs != nil) != newest {
			t.Fatalf("whole snapshot %d of %d keeps its host as %+v", k, len(h.full), s.Host)
		}
		if want := snaps[int(s.Seq)-1].Host; s.Host.CPU != want.CPU || s.Host.MemUsed != want.MemUsed {
			t.Fatalf("whole snapshot %d: host scalars %+v, pushed %+v", k, s.Host, want)
		}
	}
	if snaps[0].Host.Procs == nil || snaps[128].Host.CPUs == nil {
		t.Fatal("the snapshot pushed lost its host")
	}
}
