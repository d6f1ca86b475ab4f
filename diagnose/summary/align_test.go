package summary

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/timeline"
)

func TestAlignByWallClock(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 14, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	open := func(rule string, gpu, from, to int) Finding {
		return Finding{Rule: rule, GPU: gpu, FirstSeen: at(from), LastSeen: at(to), Spans: []Span{{at(from), at(to)}}}
	}
	r := &Report{Range: Range{From: at(0), To: at(600)}, Findings: []Finding{
		open(diagnose.RuleHostWait, 0, 100, 400),        // decided by the trace
		open(diagnose.RuleThermalThrottle, 0, 100, 400), // no timeline shows it
		open(diagnose.RuleLaunchBound, 0, 100, 400),     // confirmed
		open(diagnose.RuleCopyBound, 0, 100, 400),       // the trace has no copy finding
		open(diagnose.RuleTensorCoresIdle, 0, 450, 500), // after the trace: not in its window
		open(diagnose.RuleTensorCoresIdle, 1, 100, 400), // another GPU than the trace's
		open(diagnose.RuleLoadImbalance, -1, 0, 600),    // node-wide: told beside the first trace only
	}}
	tr := &timeline.Report{
		Ranks: []timeline.Rank{
			{Rank: 0, File: "r0.json", GPU: 0, From: at(200), To: at(205)},
			{Rank: 1, File: "r1.json", GPU: 2, From: at(201), To: at(206)},
			{Rank: 2, File: "r2.json", GPU: 3},                               // no epoch
			{Rank: 3, File: "r3.json", GPU: 4, From: at(9000), To: at(9005)}, // another day's run
		},
		Findings: []timeline.Finding{
			{Rule: diagnose.RuleInputStarved, Rank: 0, Title: "DataLoader on the main thread"},
			{Rule: diagnose.RuleLaunchBound, Rank: 0, Title: "short kernels"},
			{Rule: diagnose.RuleSyncStall, Rank: 0, Title: "syncs"},
		},
	}
	a := Align(r, tr)
	if len(a.Ranks) != 2 || len(a.Unaligned) != 2 {
		t.Fatalf("%d aligned, %d not; want 2 and 2", len(a.Ranks), len(a.Unaligned))
	}
	if a.Unaligned[0].Why.ID != "align.no_epoch" || a.Unaligned[1].Why.ID != "align.outside" {
		t.Errorf("unaligned: %+v", a.Unaligned)
	}
	got := map[string]string{}
	for _, p := range a.Ranks[0].Pairs {
		rule := ""
		if p.Counters != nil {
			rule = p.Counters.Rule
		} else {
			rule = "trace:" + p.Trace.Rule
		}
		got[rule] = p.Verdict
	}
	want := map[string]string{
		diagnose.RuleHostWait:             VerdictDecided,
		diagnose.RuleThermalThrottle:      VerdictInvisible,
		diagnose.RuleLaunchBound:          VerdictConfirmed,
		diagnose.RuleCopyBound:            VerdictDiffers, // the trace's sync_stall is left over
		diagnose.RuleLoadImbalance:        VerdictInvisible,
		"trace:" + diagnose.RuleSyncStall: VerdictTraceOnly,
	}
	if len(got) != len(want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
	for rule, v := range want {
		if got[rule] != v {
			t.Errorf("%s: %q, want %q (all: %v)", rule, got[rule], v, got)
		}
	}
	for _, p := range a.Ranks[0].Pairs {
		if p.Verdict == VerdictDecided && p.Trace.Rule != diagnose.RuleInputStarved {
			t.Errorf("host_wait decided as %s, want input_starved", p.Trace.Rule)
		}
	}
	// Rank 1 ran on GPU 2, where the counters saw nothing; the node-wide
	// finding was told beside rank 0 already.
	if ps := a.Ranks[1].Pairs; len(ps) != 0 {
		t.Errorf("rank 1 (GPU 2): %+v, want no pairs", ps)
	}
	var b strings.Builder
	for _, u := range a.Unaligned {
		b.WriteString(diagnose.Text{u.Why}.String())
	}
	if !strings.Contains(b.String(), "baseTimeNanoseconds") || !strings.Contains(b.String(), "2026-12-06 16:30:00") {
		t.Errorf("unaligned reasons: %s", b.String())
	}
}

// With nothing left in the trace, a cause it can show is "not in the trace".
func TestAlignNotInTrace(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 14, 0, 0, 0, time.UTC)
	r := &Report{Range: Range{From: t0, To: t0.Add(time.Hour)}, Findings: []Finding{
		{Rule: diagnose.RuleSyncStall, GPU: 0, FirstSeen: t0, LastSeen: t0.Add(time.Hour)}, // no spans: first to last seen
	}}
	tr := &timeline.Report{Ranks: []timeline.Rank{{Rank: -1, GPU: 0, From: t0.Add(time.Minute), To: t0.Add(time.Minute + time.Second)}}}
	a := Align(r, tr)
	if len(a.Ranks) != 1 || len(a.Ranks[0].Pairs) != 1 || a.Ranks[0].Pairs[0].Verdict != VerdictNotInTrace {
		t.Fatalf("%+v", a)
	}
}
