package diagnose

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestSlimWindowMatchesWhole holds that a Tracker whose window keeps the
// older snapshots' hosts as figures (slim.go) diagnoses what one that
// keeps them whole does: every finding, level and checklist, frame by
// frame, on scenes whose findings read the processes' CPU and state in
// every snapshot (the input rules, the I/O wait's D state, the workers),
// with a host reading shared by two snapshots now and then, a scrub back,
// and the pre-roll's views (ObserveHistory).
func TestSlimWindowMatchesWhole(t *testing.T) {
	scenes := map[string][]scene{
		"healthy, GPU 3 starved": append(healthyNode(), inputStarvedOn(3)),
		"straggler":              {stragglerJob(60)},
		"io bound":               {ioBound(30, "D")},
		"io bound now and then":  {ioBound(30, "D"), sometimesAsleep},
		"starved main":           {inputStarved(99, 1, 20)},
		"starved workers":        {inputStarved(40, 8, 99)},
	}
	for name, sc := range scenes {
		w := makeWindow(400, sc...)
		for j := 7; j < len(w); j += 11 { // a host reading shared, as when the host is read less often
			w[j].Host = w[j-1].Host
		}
		for _, every := range []time.Duration{time.Second, 3 * time.Second} {
			slim := NewViewTracker(Options{Every: every})
			whole := NewViewTracker(Options{Every: every})
			whole.hist.whole = true
			found, slimmed := 0, 0
			check := func(at int, a, b Frame) {
				t.Helper()
				if !reflect.DeepEqual(a.Diagnosis, b.Diagnosis) {
					t.Fatalf("%s, every %v, snapshot %d: slim window diagnosed\n%+v\nwhole\n%+v", name, every, at, a.Diagnosis, b.Diagnosis)
				}
				found += len(a.Findings())
			}
			pre := 150
			var a, b []Frame
			slim.ObserveHistory(w[:pre], func(f Frame) { a = append(a, f) })
			whole.ObserveHistory(w[:pre], func(f Frame) { b = append(b, f) })
			for i := range a {
				check(i, a[i], b[i])
			}
			for i := pre; i < len(w); i++ {
				if i == 300 { // scrub back
					for j := 200; j < 230; j++ {
						check(j, slim.Observe(w[j]), whole.Observe(w[j]))
					}
				}
				check(i, slim.Observe(w[i]), whole.Observe(w[i]))
				if h := slim.hist.snaps; len(h) > 1 && h[0].Host != nil && h[0].Host.Procs == nil {
					slimmed++
				}
			}
			if found == 0 || slimmed < 200 {
				t.Fatalf("%s, every %v: %d findings, %d windows with slim hosts: the scene judged nothing or nothing was slimmed", name, every, found, slimmed)
			}
		}
	}
}

// sometimesAsleep wakes the workers of a scene's I/O wait in two
// snapshots of five, so the share of D states is the window's, not the
// newest snapshot's.
func sometimesAsleep(t int, _ *rand.Rand, s *sampler.Snapshot) {
	for pid := 4200; pid < 4206 && t%5 < 2; pid++ {
		if p := s.Host.Procs[pid]; p != nil {
			p.State = "S"
		}
	}
}

// TestSlimHostKeepsWhatRulesRead: the scalars, each process's CPU and
// state by PID, and a missing process table told from an empty one.
func TestSlimHostKeepsWhatRulesRead(t *testing.T) {
	h := &sampler.Host{CPUs: []float64{1, 2}, CPU: sampler.Some(40), IOWait: sampler.Some(3), Procs: map[int]*sampler.Proc{
		9: {PID: 9, State: "D", CPU: sampler.Some(12), Cmdline: "python train.py"}, 4: {PID: 4, State: "S"}, 7: nil}}
	s, rows := slimHost(h)
	if s == h || s.CPUs != nil || s.Procs != nil || s.CPU != h.CPU || s.IOWait != h.IOWait {
		t.Fatalf("slim host %+v", s)
	}
	if r := rows.find(9); r == nil || r.state != "D" || r.cpu != sampler.Some(12) {
		t.Fatalf("PID 9 kept as %+v", r)
	}
	if rows.find(4) == nil || rows.find(7) != nil || rows.find(5) != nil || len(rows) != 2 {
		t.Fatalf("rows %+v", rows)
	}
	if _, rows := slimHost(&sampler.Host{}); rows != nil {
		t.Fatal("a host without a process table kept one")
	}
	if _, rows := slimHost(&sampler.Host{Procs: map[int]*sampler.Proc{}}); rows == nil {
		t.Fatal("an empty process table kept as none")
	}
	if s, _ := slimHost(nil); s != nil {
		t.Fatal("no host made one")
	}
}
