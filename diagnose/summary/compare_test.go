package summary

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary/summarytest"
)

// synthPair is ui/report's golden comparison: a recording with one
// input_starved episode, then a run 40 points busier with no finding.
func synthPair(t *testing.T) *Comparison {
	base := build(t, &summarytest.Synth{N: 300, GPUs: 4, Host: true, Recorded: true}, Options{File: "base.jsonl.gz", Format: "gpuscope"})
	after := build(t, &summarytest.Synth{N: 300, GPUs: 4, Host: true, Recorded: true, Quiet: true, UtilAdd: 40},
		Options{File: "after.jsonl.gz", Format: "gpuscope"})
	return Compare(base, after)
}

func TestCompareVerdictAndMatching(t *testing.T) {
	c := synthPair(t)
	// Base means: 49.5, 90, 50, 0 → 47.375; after (+40, capped at 100):
	// 81.7, 100, 70, 40 → 72.925.
	want := "GPU-Util mean 47% → 73% (+26 pts); input_starved resolved on GPU 2; no new finding"
	if got := c.Verdict(); got != want {
		t.Errorf("verdict\n got %q\nwant %q", got, want)
	}
	if len(c.GPUs) != 4 || len(c.Resolved) != 1 || len(c.Appeared) != 0 || len(c.Persisting) != 0 {
		t.Fatalf("gpus %d resolved %d appeared %d persisting %d", len(c.GPUs), len(c.Resolved), len(c.Appeared), len(c.Persisting))
	}
	near(t, "GPU 0 util mean after - base", c.GPUs[0].After.Util.Mean-c.GPUs[0].Base.Util.Mean, 81.7-49.5)
}

func TestCompareFindingsByRuleAndGPUNotPID(t *testing.T) {
	mk := func(fs ...Finding) *Report { return &Report{Findings: fs} }
	base := mk(
		Finding{Rule: diagnose.RuleInputStarved, GPU: 0, PID: 100},
		Finding{Rule: diagnose.RulePowerCapped, GPU: 1},
		Finding{Rule: diagnose.RulePowerCapped, GPU: 2},
	)
	after := mk(
		Finding{Rule: diagnose.RuleInputStarved, GPU: 0, PID: 555}, // same job, new PID
		Finding{Rule: diagnose.RuleThermalThrottle, GPU: -1},
	)
	after.Range.Seconds = 600 // long enough, GPUs present: absence means resolved
	after.GPUs = []GPU{{Index: 0, Samples: 600}, {Index: 1, Samples: 600}, {Index: 2, Samples: 600}}
	c := Compare(base, after)
	if len(c.Persisting) != 1 || c.Persisting[0].After.PID != 555 {
		t.Errorf("persisting %+v, want input_starved matched across PIDs", c.Persisting)
	}
	want := "GPU-Util mean n/a → n/a; power_capped resolved on GPUs 1, 2; thermal_throttle appeared on the node"
	if got := c.Verdict(); got != want {
		t.Errorf("verdict\n got %q\nwant %q", got, want)
	}
}

func TestVerdictAddsUp(t *testing.T) {
	mk := func(u float64) *Report { return &Report{GPUs: []GPU{{Util: &Dist{Mean: u, Samples: 10}}}} }
	// 47.4 → 72.6 would read "+25 pts" from the raw change; the line must add up.
	if got, want := Compare(mk(47.4), mk(72.6)).Verdict(), "GPU-Util mean 47% → 73% (+26 pts); no new finding"; got != want {
		t.Errorf("verdict %q, want %q", got, want)
	}
}

func TestCompareGPUOnlyOnOneSide(t *testing.T) {
	base := build(t, &summarytest.Synth{N: 30, GPUs: 2}, Options{})
	after := build(t, &summarytest.Synth{N: 30, GPUs: 3}, Options{})
	c := Compare(base, after)
	if len(c.GPUs) != 3 || c.GPUs[2].Base != nil || c.GPUs[2].After == nil {
		t.Fatalf("GPU 2 only after: %+v", c.GPUs)
	}
}

// A finding missing from an after-run that could not have seen it is "not
// judged", not "resolved": too short, the GPU absent, or no host data for a
// rule that needs it.
func TestCompareNotJudged(t *testing.T) {
	base := &Report{Findings: []Finding{
		{Rule: diagnose.RuleInputStarved, GPU: 0},
		{Rule: diagnose.RulePowerCapped, GPU: 3},
	}}
	short := &Report{Range: Range{Seconds: 15}, GPUs: []GPU{{Index: 0, Samples: 15}, {Index: 3, Samples: 15}}}
	if c := Compare(base, short); len(c.Resolved) != 0 || len(c.NotJudged) != 2 {
		t.Fatalf("15 s after-run: resolved %d, not judged %d", len(c.Resolved), len(c.NotJudged))
	}
	noHost := &Report{Range: Range{Seconds: 600}, GPUs: []GPU{{Index: 0, Samples: 600}, {Index: 3, Samples: 600}}}
	c := Compare(base, noHost)
	if len(c.NotJudged) != 1 || c.NotJudged[0].Rule != diagnose.RuleInputStarved || len(c.Resolved) != 1 {
		t.Fatalf("log without host data: not judged %+v, resolved %+v", c.NotJudged, c.Resolved)
	}
	noHost.Environment.HostData = true
	noHost.GPUs = noHost.GPUs[:1] // GPU 3 gone
	c = Compare(base, noHost)
	if len(c.NotJudged) != 1 || c.NotJudged[0].GPU != 3 || len(c.Resolved) != 1 {
		t.Fatalf("GPU 3 absent: not judged %+v, resolved %+v", c.NotJudged, c.Resolved)
	}
}

// The verdict's mean leaves out GPUs idle in both runs.
func TestVerdictMeanOverBusyGPUs(t *testing.T) {
	gpus := func(util0 float64) []GPU {
		out := []GPU{{Index: 0, Samples: 100, Util: &Dist{Mean: util0, Samples: 100}}}
		for i := 1; i < 8; i++ {
			out = append(out, GPU{Index: i, Samples: 100, Util: &Dist{Mean: 0, Samples: 100}})
		}
		return out
	}
	base := &Report{Range: Range{Seconds: 100}, GPUs: gpus(46)}
	after := &Report{Range: Range{Seconds: 100}, GPUs: gpus(97)}
	want := "GPU-Util mean of the 1 busy GPU 46% → 97% (+51 pts); no new finding"
	if got := Compare(base, after).Verdict(); got != want {
		t.Errorf("verdict\n got %q\nwant %q", got, want)
	}
}

// Two runs on other hosts or other GPUs are said to be unlike: a
// before/after over two machines measures the machines.
func TestCompareSaysWhenRunsAreUnlike(t *testing.T) {
	rep := func(host string, gpus ...string) *Report {
		return &Report{Environment: Environment{Host: host, GPUModels: gpus}}
	}
	if c := Compare(rep("a", "8× NVIDIA H200"), rep("a", "8× NVIDIA H200")); len(c.Unlike) != 0 {
		t.Errorf("one machine: %v", c.Unlike)
	}
	if c := Compare(rep("", "8× NVIDIA H200"), rep("b", "8× NVIDIA H200")); len(c.Unlike) != 0 {
		t.Errorf("a log without a host name: %v", c.Unlike)
	}
	c := Compare(rep("a", "8× NVIDIA H200"), rep("b", "4× NVIDIA A100-SXM4-80GB"))
	var got []string
	for _, u := range c.Unlike {
		got = append(got, diagnose.Text{u}.String())
	}
	if want := "base ran on a, after on b|base had 8× NVIDIA H200, after 4× NVIDIA A100-SXM4-80GB"; strings.Join(got, "|") != want {
		t.Errorf("unlike %q, want %q", got, want)
	}
}
