package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/timeline"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

// Summary writes what `nsys stats` totals prove: the kernels, launches,
// syncs and copies they count, the findings at Info, and what a summary
// cannot judge, said every time.
func (rr Renderer) Summary(w io.Writer, s *timeline.Summary) error { return rr.w.summary(w, s) }

// SummaryJSON writes the summary's figures and findings as JSON.
func SummaryJSON(w io.Writer, s *timeline.Summary) error {
	out := struct {
		Version   int    `json:"gpuscope_stats_report"`
		NotJudged string `json:"not_judged"`
		*timeline.Summary
	}{1, diagnose.Text{timeline.NotJudged}.String(), s}
	return writeJSON(w, "report", out)
}

func (l words) summary(w io.Writer, s *timeline.Summary) error {
	var b strings.Builder
	const lw = 12
	fmt.Fprintf(&b, "%s\n\n", l.t("stats_title"))
	k := s.Kernels
	fmt.Fprintf(&b, "  %s%s\n", l.label("trace_kernels", lw), l.t("stats_kernels_line", "N", k.Count, "Median", timeline.Dur(k.MedianUS),
		"Under10", pct0(k.Under10), "Under50", pct0(k.Under50)))
	var top []string
	for j, t := range k.Top {
		if j == 3 {
			break
		}
		top = append(top, fmt.Sprintf("%s %s", timeline.ShortName(t.Name), pct0(t.Share)))
	}
	fmt.Fprintf(&b, "  %s%s\n", l.label("trace_top", lw), orNA(strings.Join(top, ", ")))
	if s.Launches > 0 {
		fmt.Fprintf(&b, "  %s%s\n", l.label("stats_launches", lw), l.t("stats_launch_line", "Count", s.Launches, "CPU", timeline.Dur(s.LaunchUS), "GPU", timeline.Dur(s.KernelUS)))
	}
	if len(s.Syncs) > 0 {
		var ss []string
		for j, sy := range s.Syncs {
			if j == 3 {
				break
			}
			ss = append(ss, fmt.Sprintf("%d× %s (%s)", sy.Count, sy.Name, timeline.Dur(sy.TotalUS)))
		}
		fmt.Fprintf(&b, "  %s%s\n", l.label("trace_syncs", lw), strings.Join(ss, ", "))
	}
	fmt.Fprintf(&b, "\n%s\n", l.t("stats_findings", "N", len(s.Findings)))
	if len(s.Findings) == 0 {
		b.WriteString("  " + l.t("none") + "\n")
	}
	for i := range s.Findings {
		l.timelineFinding(&b, &s.Findings[i])
	}
	nj := diagnose.Text{timeline.NotJudged}
	fmt.Fprintf(&b, "\n%s %s\n", l.t("stats_not_judged"), l.tr.Text(nj, nj.String()))
	_, err := io.WriteString(w, safe.Text(b.String())) // kernel names come from the file
	return err
}
