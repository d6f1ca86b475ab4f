package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// A health finding that closed before the run's end stays in the verdict,
// at its worst severity and saying when it was open; a workload finding
// that closed does not, and one still open is not doubled.
func TestHealthLogKeepsWhatClosed(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 14, 0, 0, 0, time.UTC)
	frame := func(s int, fs ...Finding) Frame {
		return Frame{Snapshot: sampler.Snapshot{Time: t0.Add(time.Duration(s) * time.Second)}, Diagnosis: &Diagnosis{Findings: fs}}
	}
	xidW := Finding{Rule: RuleXidError, GPU: 3, Severity: Warning, Evidence: "Xid 13"}
	xidC := Finding{Rule: RuleXidError, GPU: 3, Severity: Critical, Evidence: "GPU_IS_LOST", I18n: &FindingText{Title: say("t", "lost")}}
	thermal := Finding{Rule: RuleThermalThrottle, GPU: 1, Severity: Warning}
	starved := Finding{Rule: RuleInputStarved, GPU: 0, Severity: Warning}
	var h HealthLog
	for _, fr := range []Frame{frame(0, starved), frame(60, xidW, starved, thermal), frame(61, xidC, thermal), frame(150, thermal)} {
		h.Observe(fr)
	}
	v := h.Verdict([]Finding{thermal})
	if len(v) != 2 || v[0].Rule != RuleXidError || v[1].Rule != RuleThermalThrottle {
		t.Fatalf("verdict %+v; want the lost GPU (critical) first, then the thermal finding still open", v)
	}
	x := v[0]
	if x.Severity != Critical || !strings.Contains(x.Evidence, "GPU_IS_LOST; open 14:01:00 to 14:01:01 of the run and gone by its end") {
		t.Errorf("closed Xid: %s %q", x.Severity, x.Evidence)
	}
	if x.I18n == nil || len(x.I18n.Evidence) != 1 || x.I18n.Evidence[0].ID != "health.gone" || xidC.I18n.Evidence != nil {
		t.Errorf("the messages: %+v (the original must be left alone: %+v)", x.I18n, xidC.I18n)
	}
	var empty HealthLog
	if v := empty.Verdict(nil); len(v) != 0 {
		t.Errorf("nothing seen: %+v", v)
	}
}
