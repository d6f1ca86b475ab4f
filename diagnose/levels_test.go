package diagnose

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestThreeLevels(t *testing.T) {
	verdicts := func(l Levels) [3]string {
		return [3]string{l.KernelRunning.Verdict, l.SMFilled.Verdict, l.Computing.Verdict}
	}
	cases := []struct {
		name   string
		scenes []scene
		gpu    int
		want   [3]string
	}{
		{"healthy training", healthyNode(), 0, [3]string{"yes", "yes", "yes"}},
		{"launch-bound: busy, few SMs, no math", []scene{launchBound(20, true)}, 0, [3]string{"yes", "no", "no"}},
		{"memory-bound: waiting on DRAM", []scene{kernelMix(55, 2, 90)}, 0, [3]string{"yes", "partly", "no"}},
		{"no GPM", []scene{launchBound(20, false)}, 0, [3]string{"yes", "n/a", "n/a"}},
		{"idle GPU", nil, 3, [3]string{"no", "no", "no"}},
		{"missing GPU", nil, 12, [3]string{"n/a", "n/a", "n/a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := ThreeLevels(makeWindow(60, tc.scenes...), tc.gpu)
			if got := verdicts(l); got != tc.want {
				t.Fatalf("verdicts %v, want %v (%+v)", got, tc.want, l)
			}
			if l.KernelRunning.Label == "" || l.SMFilled.Label == "" || l.Computing.Label == "" {
				t.Fatalf("empty label in %+v", l)
			}
		})
	}
	l := ThreeLevels(makeWindow(60, launchBound(20, true)), 0)
	if !l.SMFilled.Value.OK || l.SMFilled.Value.V < 15 || l.SMFilled.Value.V > 25 {
		t.Fatalf("SM level value %+v, want the median ≈ 20", l.SMFilled.Value)
	}
	if !contains(l.KernelRunning.Label, "GPU-Util p50") {
		t.Fatalf("label %q", l.KernelRunning.Label)
	}
}

func TestChecklist(t *testing.T) {
	w := makeWindow(120, inputStarved(99, 0, 0))
	steps := Checklist(w, Evaluate(w))
	if len(steps) != 7 {
		t.Fatalf("%d steps, want 7", len(steps))
	}
	for i, s := range steps {
		if s.N != i+1 || s.Title == "" {
			t.Fatalf("step %d: %+v", i, s)
		}
	}
	// Step 7 is not judged from counters: "todo" with what would judge it,
	// never "ok" (it used to say ok, "no kernel-level pattern seen").
	want := []string{"ok", "ok", "warn", "ok", "ok", "n/a", "todo"}
	for i, s := range steps {
		if s.Status != want[i] {
			t.Errorf("step %d %q: status %s (%s), want %s", s.N, s.Title, s.Status, s.Detail, want[i])
		}
	}
	if !contains(steps[6].Detail, "not judged") || !contains(steps[6].Detail, "trace") {
		t.Errorf("kernel step detail %q should say it was not judged and what judges it", steps[6].Detail)
	}
	if !contains(steps[2].Detail, "starved") || !contains(steps[2].Detail, "PID 4121") {
		t.Errorf("CPU step detail %q should name the process and the finding", steps[2].Detail)
	}

	short := makeWindow(20, inputStarved(99, 0, 0))
	if s := Checklist(short, nil)[1]; s.Status != "warn" {
		t.Errorf("20 s of data: step 2 %+v, want warn", s)
	}
	noHost := makeWindow(60, func(_ int, _ *rand.Rand, s *sampler.Snapshot) { s.Host = nil })
	if s := Checklist(noHost, nil); s[2].Status != "n/a" || s[3].Status != "n/a" || s[0].Status != "n/a" {
		t.Errorf("no host and no process: %+v", s)
	}

	multi := makeWindow(120, lockstep(), pcieTopology)
	steps = Checklist(multi, Evaluate(multi))
	if steps[5].Status != "warn" || !contains(steps[5].Detail, "PCIe") {
		t.Errorf("comm-bound job: topology step %+v", steps[5])
	}
	crit := []Finding{{Rule: RuleThermalThrottle, Severity: Critical, GPU: 0, Title: "hot"}}
	if s := Checklist(w, crit)[4]; s.Status != "bad" {
		t.Errorf("critical thermal finding: power step %+v", s)
	}
}

// TestLevelsSayWhyGPMIsMissing: a Hopper GPU on a driver without GPM is
// n/a for the driver's reason, not for its architecture's.
func TestLevelsSayWhyGPMIsMissing(t *testing.T) {
	w := makeWindow(60, launchBound(20, false))
	if l := ThreeLevels(w, 0); !strings.Contains(l.SMFilled.Label, sampler.ReasonNoGPM) {
		t.Errorf("no reason recorded: %q, want the architecture's %q", l.SMFilled.Label, sampler.ReasonNoGPM)
	}
	for i := range w {
		g := gpuIn(&w[i], 0)
		g.NA = map[string]string{sampler.NASMActive: "not in this driver version", sampler.NATensorActive: "not in this driver version"}
	}
	l := ThreeLevels(w, 0)
	for _, lv := range []Level{l.SMFilled, l.Computing} {
		if !strings.Contains(lv.Label, "not in this driver version") || strings.Contains(lv.Label, "Hopper") {
			t.Errorf("label %q, want the driver's reason", lv.Label)
		}
	}
}

// A hardware error is the hardware step's, not "is the process on the
// GPU": a pasted table's ECC critical used to turn step 1 red.
func TestHealthFindingsMarkTheHardwareStep(t *testing.T) {
	w := makeWindow(120, inputStarved(99, 0, 0))
	for _, rule := range []string{RuleECCErrors, RuleXidError} {
		steps := Checklist(w, []Finding{{Rule: rule, Severity: Critical, GPU: 0, Title: rule + " on GPU 0"}})
		if steps[0].Status == "bad" || steps[4].Status != "bad" || !contains(steps[4].Detail, rule) {
			t.Errorf("%s: step 1 %s, step 5 %s (%s)", rule, steps[0].Status, steps[4].Status, steps[4].Detail)
		}
	}
}
