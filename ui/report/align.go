package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/diagnose/timeline"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

// Aligned writes a recording's report, the traces' report, then the two
// set side by side by wall clock: what the trace says of each finding of
// the counters in its window.
func (rr Renderer) Aligned(w io.Writer, r *summary.Report, t *timeline.Report, a *summary.Aligned) error {
	if err := rr.Text(w, r); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	if err := rr.Trace(w, t); err != nil {
		return err
	}
	return rr.w.aligned(w, a)
}

// AlignedJSON writes the three as one JSON document.
func AlignedJSON(w io.Writer, r *summary.Report, t *timeline.Report, a *summary.Aligned) error {
	out := struct {
		Version  int              `json:"gpuscope_aligned_report"`
		Counters *summary.Report  `json:"counters"`
		Trace    *timeline.Report `json:"trace"`
		Aligned  *summary.Aligned `json:"aligned"`
	}{1, r, t, a}
	return writeJSON(w, "report", out)
}

// verdictMark: one glyph per verdict, so the column reads at a glance.
var verdictMark = map[string]string{
	summary.VerdictConfirmed: "✓", summary.VerdictDecided: "✓", summary.VerdictDiffers: "✗",
	summary.VerdictNotInTrace: "?", summary.VerdictInvisible: "–", summary.VerdictTraceOnly: "+",
}

func (l words) aligned(w io.Writer, a *summary.Aligned) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n", l.t("align_title"))
	for _, k := range a.Ranks {
		fmt.Fprintf(&b, "\n%s  %s  %s\n", l.rankName(k.Rank), filepath.Base(k.File),
			l.t("align_window", "GPU", k.GPU, "From", k.From.Format(time.DateTime), "Span", timeline.Dur(float64(k.To.Sub(k.From).Microseconds()))))
		if len(k.Pairs) == 0 {
			b.WriteString("  " + l.t("align_none") + "\n")
		}
		for _, p := range k.Pairs {
			rule, what := "", ""
			switch {
			case p.Counters != nil:
				rule = p.Counters.Rule
			case p.Trace != nil:
				rule = p.Trace.Rule
			}
			if p.Verdict == summary.VerdictDecided {
				rule += " → " + p.Trace.Rule
			}
			if p.Trace != nil {
				what, _, _ = l.tr.Finding(diagnose.Finding{Title: p.Trace.Title, Evidence: p.Trace.Evidence, I18n: p.Trace.I18n})
			} else if p.Counters != nil {
				what, _, _, _ = l.finding(p.Counters)
			}
			fmt.Fprintf(&b, "  %s %-24s %s · %s\n", verdictMark[p.Verdict], rule, l.t("align_"+p.Verdict), what)
		}
	}
	for _, u := range a.Unaligned {
		fmt.Fprintf(&b, "\n%s  %s  %s\n", l.rankName(u.Rank), filepath.Base(u.File), l.tr.Text(diagnose.Text{u.Why}, diagnose.Text{u.Why}.String()))
	}
	if len(a.Ranks) > 0 {
		fmt.Fprintf(&b, "\n%s\n", l.t("align_devices"))
	}
	_, err := io.WriteString(w, safe.Text(b.String()))
	return err
}
