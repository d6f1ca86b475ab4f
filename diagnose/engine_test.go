package diagnose

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// run feeds the window to a fresh engine tick by tick and records, per
// rule/GPU key, how often it opened and at which ticks it was open.
type runLog struct {
	opens  map[string]int
	openAt map[string][]int
	last   map[string]Finding
}

func runEngine(w []sampler.Snapshot) runLog {
	e := NewEngine(Options{})
	l := runLog{opens: map[string]int{}, openAt: map[string][]int{}, last: map[string]Finding{}}
	prev := map[string]bool{}
	for t := range w {
		now := map[string]bool{}
		for _, f := range e.Evaluate(w[:t+1]) {
			k := f.Rule + "/" + itoa(f.GPU)
			now[k] = true
			if !prev[k] {
				l.opens[k]++
			}
			l.openAt[k] = append(l.openAt[k], t)
			l.last[k] = f
		}
		prev = now
	}
	return l
}

// steadyScenes each raise one finding for good.
func steadyScenes() map[string][]scene {
	return map[string][]scene{
		"input_starved": {inputStarved(99, 0, 0)},
		"sync_stall":    {syncStall(1, 55)},
		"straggler":     {stragglerJob(90), nvlinkTopology},
		"notebook":      {notebook(80e9, 0)},
	}
}

func TestEngineSteadyScenarioOpensOnce(t *testing.T) {
	for name, sc := range steadyScenes() {
		t.Run(name, func(t *testing.T) {
			l := runEngine(makeWindow(240, sc...))
			if len(l.opens) != 1 {
				t.Fatalf("want exactly one finding, got opens %v", l.opens)
			}
			for k, n := range l.opens {
				if n != 1 {
					t.Fatalf("%s opened %d times (flapping)", k, n)
				}
				if first := l.openAt[k][0]; first > 150 {
					t.Fatalf("%s opened only at %d s", k, first)
				}
				f := l.last[k]
				if !f.Since.Equal(t0.Add(time.Duration(l.openAt[k][0]) * time.Second)) {
					t.Errorf("Since %v, want the opening tick %d", f.Since, l.openAt[k][0])
				}
				if !f.LastSeen.Equal(t0.Add(239 * time.Second)) {
					t.Errorf("LastSeen %v, want the last tick", f.LastSeen)
				}
			}
		})
	}
}

func TestEngineHealthyStaysQuiet(t *testing.T) {
	l := runEngine(makeWindow(200, healthyNode()...))
	for k, f := range l.last {
		if f.Severity >= Warning {
			t.Fatalf("healthy node opened %s: %s", k, f.Evidence)
		}
	}
}

// A condition that stops: the finding closes (after its hysteresis) and
// does not reopen.
func TestEngineClosesAfterConditionStops(t *testing.T) {
	starved := inputStarved(99, 0, 0)
	healthy := healthyRank(0)
	w := makeWindow(400, func(t int, r *rand.Rand, s *sampler.Snapshot) {
		if t < 150 {
			starved(t, r, s)
			return
		}
		healthy(t, r, s)
		s.GPUs[0].Procs[0].PID = 4121 // same process, now fed well
		s.GPUs[0].Procs[0].Host.PID = 4121
	})
	l := runEngine(w)
	k := RuleInputStarved + "/0"
	if l.opens[k] != 1 {
		t.Fatalf("opens %v", l.opens)
	}
	at := l.openAt[k]
	closed := at[len(at)-1]
	if closed < 150 || closed > 150+int(DefaultWindow/time.Second)+45 {
		t.Fatalf("closed at %d s, want within the window plus hysteresis after 150 s", closed)
	}
}

// A brief interruption (5 s healthy in the middle) does not close a finding.
func TestEngineBriefToggleDoesNotFlap(t *testing.T) {
	starved := inputStarved(99, 0, 0)
	w := makeWindow(240, func(t int, r *rand.Rand, s *sampler.Snapshot) {
		starved(t, r, s)
		if t >= 120 && t < 125 {
			busy(r, &s.GPUs[0])
		}
	})
	l := runEngine(w)
	if n := l.opens[RuleInputStarved+"/0"]; n != 1 {
		t.Fatalf("opened %d times, want 1 (%v)", n, l.opens)
	}
}

// When the raw rule toggles, the engine follows the share of matches: at
// 80% it opens once and stays open through the misses; at 40% it never opens.
func TestEngineRawToggleDoesNotFlap(t *testing.T) {
	starved := makeWindow(200, inputStarved(99, 0, 0))
	idle := makeWindow(200)
	for _, tc := range []struct {
		matchEvery5 int
		wantOpens   int
	}{{4, 1}, {2, 0}} {
		e := NewEngine(Options{Window: 60 * time.Second})
		opens, open := 0, false
		for tick := 100; tick < 200; tick++ {
			src := starved
			if tick%5 >= tc.matchEvery5 {
				src = idle // a window with no finding at all
			}
			fs := e.Evaluate(src[tick-59 : tick+1])
			_, now := has(fs, RuleInputStarved, 0)
			if now && !open {
				opens++
			}
			if open && !now && tc.wantOpens == 1 {
				t.Fatalf("%d/5 matching: closed at tick %d", tc.matchEvery5, tick)
			}
			open = now
		}
		if opens != tc.wantOpens {
			t.Fatalf("%d/5 matching: opened %d times, want %d", tc.matchEvery5, opens, tc.wantOpens)
		}
	}
}

func TestEngineHealthFindingsOpenAtOnce(t *testing.T) {
	w := makeWindow(80, xid(79))
	e := NewEngine(Options{})
	for tick := 0; tick <= 40; tick++ {
		fs := e.Evaluate(w[:tick+1])
		_, ok := has(fs, RuleXidError, 0)
		if ok != (tick == 40) && tick <= 40 {
			if tick == 40 {
				t.Fatalf("Xid 79 not shown on the tick it arrived")
			}
			t.Fatalf("xid finding before the event at tick %d", tick)
		}
	}
}

func TestEngineWindowOption(t *testing.T) {
	// With a 20 s window the rules never see the 30 s they need.
	e := NewEngine(Options{Window: 20 * time.Second})
	w := makeWindow(200, inputStarved(99, 0, 0))
	for tick := range w {
		if fs := e.Evaluate(w[:tick+1]); len(fs) > 0 {
			t.Fatalf("tick %d: %s", tick, describe(fs))
		}
	}
}
