package diagnose

import (
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// At 100 ms the rules run once a second, not ten times; a snapshot that is
// not newer than the last evaluated one runs nothing.
func TestTrackerEvaluatesAtMostOnceASecond(t *testing.T) {
	tr := NewViewTracker(Options{})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	evals := 0
	var last *Diagnosis
	for i := range 100 { // 10 s
		s := sampler.Snapshot{Time: t0.Add(time.Duration(i) * 100 * time.Millisecond), GPUs: []sampler.GPU{{Index: 0}}}
		d := tr.Observe(s).Diagnosis
		if d != last {
			evals++
			last = d
		}
	}
	if evals != 10 {
		t.Errorf("%d evaluations in 10 s at 100 ms, want 10", evals)
	}
	if len(last.Levels) != 1 || len(last.Checklists) != 1 || last.Samples != 91 {
		t.Errorf("diagnosis: %d levels, %d checklists, %d samples; want 1, 1, 91", len(last.Levels), len(last.Checklists), last.Samples)
	}
	if d := tr.Observe(sampler.Snapshot{Time: last.At}).Diagnosis; d != last {
		t.Error("a snapshot with nothing new re-ran the rules")
	}
	// A live 1 s tick that arrives a few ms early is still evaluated.
	if d := tr.Observe(sampler.Snapshot{Time: last.At.Add(time.Second - 3*time.Millisecond)}).Diagnosis; d == last {
		t.Error("an early 1 s tick skipped")
	}
	// Scrubbing back (replay) starts the window over.
	if d := tr.Observe(sampler.Snapshot{Time: t0}).Diagnosis; d.Samples != 1 {
		t.Errorf("after going back %d samples, want 1", d.Samples)
	}
}

func TestChecklistsCoverEveryFindingsGPU(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w := []sampler.Snapshot{{Time: t0, GPUs: []sampler.GPU{{Index: 0}}}}
	fs := []Finding{{Rule: RuleThermalThrottle, GPU: 2, Severity: Critical, Title: "hot"}, {Rule: RuleXidError, GPU: -1, Severity: Warning, Title: "node"}}
	lists := Checklists(w, fs, 1)
	if len(lists) != 3 {
		t.Fatalf("%d checklists, want 3 (GPU 2 has a finding)", len(lists))
	}
	for g, want := range []string{Checklist(w, ForGPU(fs, 0))[4].Status, "", Checklist(w, ForGPU(fs, 2))[4].Status} {
		if want != "" && lists[g][4].Status != want {
			t.Errorf("GPU %d step 5 %q, want %q as Checklist", g, lists[g][4].Status, want)
		}
	}
	if lists[2][4].Status != "bad" {
		t.Errorf("GPU 2's throttle not marked: %+v", lists[2][4])
	}
}

// The hysteresis is stated in time: a Tracker at a 10 s stride (report's)
// opens every finding within one stride of the live 1 s one.
func TestTrackerStrideOpensWithinOneStride(t *testing.T) {
	for name, sc := range steadyScenes() {
		t.Run(name, func(t *testing.T) {
			w := makeWindow(240, sc...)
			firstOpen := func(every time.Duration) map[string]time.Time {
				tr := NewTracker(Options{Every: every})
				out := map[string]time.Time{}
				for _, s := range w {
					for _, f := range tr.Push(s) {
						if k := f.Rule + "/" + itoa(f.GPU); out[k].IsZero() {
							out[k] = f.Since
						}
					}
				}
				return out
			}
			live, report := firstOpen(0), firstOpen(10*time.Second)
			if len(live) == 0 || len(live) != len(report) {
				t.Fatalf("live opened %v, the 10 s stride %v", live, report)
			}
			for k, at := range live {
				if d := report[k].Sub(at); d < -10*time.Second || d > 10*time.Second {
					t.Errorf("%s: opens at %s live, %s at a 10 s stride (%s apart)", k, at.Format("15:04:05"), report[k].Format("15:04:05"), d)
				}
			}
		})
	}
}
