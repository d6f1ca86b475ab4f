package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/timeline"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

// Trace writes what profiler traces prove, one screen for a terminal: per
// rank its figures ([hta-docs]' definitions), then the findings with their
// evidence and first fix.
func (rr Renderer) Trace(w io.Writer, r *timeline.Report) error { return rr.w.trace(w, r) }

// TraceJSON writes the trace report as JSON (English keys, the findings'
// messages carried for a reader in another language).
func TraceJSON(w io.Writer, r *timeline.Report) error {
	out := struct {
		Version int `json:"gpuscope_trace_report"`
		*timeline.Report
	}{1, r}
	return writeJSON(w, "report", out)
}

func (l words) trace(w io.Writer, r *timeline.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", l.tr.N("report.trace_title", len(r.Ranks)))
	const lw = 12
	for i := range r.Ranks {
		k := &r.Ranks[i]
		fmt.Fprintf(&b, "\n%s  %s\n", l.rankName(k.Rank), filepath.Base(k.File))
		fmt.Fprintf(&b, "  %s%s\n", l.label("trace_device", lw), l.t("trace_device_line", "Device", orNA(k.Device), "GPU", k.GPU, "Events", k.Analysed))
		if k.Approximate > 0 { // the bounded window of diagnose/timeline (docs/ARCHITECTURE.md)
			fmt.Fprintf(&b, "  %s%s\n", l.label("trace_approx", lw), l.t("trace_approx_line", "N", k.Approximate))
		}
		if len(k.Steps) > 0 {
			fmt.Fprintf(&b, "  %s%s\n", l.label("trace_steps_label", lw), l.tr.N("report.trace_steps", len(k.Steps), map[string]any{"Median": timeline.Dur(k.StepMedianUS)}))
		}
		d := k.Breakdown
		fmt.Fprintf(&b, "  %s%s\n", l.label("trace_time", lw), l.t("trace_time_line", "Compute", pct1(d.Share(d.ComputeUS)),
			"NonCompute", pct1(d.Share(d.NonComputeUS)), "Idle", pct1(d.Share(d.IdleUS)), "Span", timeline.Dur(d.SpanUS)))
		if s, ok := k.MainStream(); ok {
			h, kw, o := s.IdleShare()
			fmt.Fprintf(&b, "  %s%s\n", l.label("trace_idle", lw), l.t("trace_idle_line", "Stream", s.Stream, "Host", pct0(h), "Kernel", pct0(kw), "Other", pct0(o)))
		}
		kn := k.Kernels
		fmt.Fprintf(&b, "  %s%s\n", l.label("trace_kernels", lw), l.t("trace_kernels_line", "N", kn.Count, "Median", timeline.Dur(kn.MedianUS),
			"Under10", pct0(kn.Under10), "Under50", pct0(kn.Under50), "Short", pct0(kn.ShortShare)))
		var top []string
		for j, s := range kn.Top {
			if j == 3 {
				break
			}
			top = append(top, fmt.Sprintf("%s %s", timeline.ShortName(s.Name), pct0(s.Share)))
		}
		fmt.Fprintf(&b, "  %s%s\n", l.label("trace_top", lw), orNA(strings.Join(top, ", ")))
		if d.CommUS > 0 {
			fmt.Fprintf(&b, "  %s%s\n", l.label("trace_comm", lw), l.t("trace_comm_line", "Comm", timeline.Dur(d.CommUS), "Overlap", pct0(d.OverlapShare)))
		}
		c := k.Copies
		fmt.Fprintf(&b, "  %s%s\n", l.label("trace_copies", lw), l.t("trace_copies_line", "H2D", mibOf(c.H2DBytes), "D2H", mibOf(c.D2HBytes), "Pageable", mibOf(c.PageableBytes)))
		if len(k.Syncs) > 0 {
			var ss []string
			for j, s := range k.Syncs {
				if j == 3 {
					break
				}
				call := fmt.Sprintf("%d× %s", s.Count, s.Name)
				if s.Caller != "" {
					call += " ← " + s.Caller // the operator it ran inside
				}
				ss = append(ss, call)
			}
			fmt.Fprintf(&b, "  %s%s\n", l.label("trace_syncs", lw), strings.Join(ss, ", "))
		}
		if ld := k.Loader; ld != nil {
			line := l.t("trace_loader_line", "Name", ld.Name, "Share", pct0(ld.StepShare))
			if ld.MainThread {
				line += l.t("trace_loader_main")
			}
			fmt.Fprintf(&b, "  %s%s\n", l.label("trace_loader", lw), line)
		}
	}
	fmt.Fprintf(&b, "\n%s\n", l.t("trace_findings", "N", len(r.Findings)))
	if len(r.Findings) == 0 {
		b.WriteString("  " + l.t("none") + "\n")
	}
	for i := range r.Findings {
		l.timelineFinding(&b, &r.Findings[i])
	}
	_, err := io.WriteString(w, safe.Text(b.String())) // op and kernel names come from the file
	return err
}

func (l words) rankName(rank int) string {
	if rank < 0 {
		return l.t("trace_no_rank")
	}
	return l.t("trace_rank", "Rank", rank)
}

func pct0(v float64) string { return fmt.Sprintf("%.0f%%", v) }
func pct1(v float64) string { return fmt.Sprintf("%.1f%%", v) }

func mibOf(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// timelineFinding writes one finding of a trace or a summary: severity,
// rule, whether the trace confirms it, title, evidence and first fix.
func (l words) timelineFinding(b *strings.Builder, f *timeline.Finding) {
	title, evidence, _ := l.tr.Finding(diagnose.Finding{Title: f.Title, Evidence: f.Evidence, I18n: f.I18n})
	how := l.t("trace_points")
	if f.Confirmed {
		how = l.t("trace_confirmed")
	}
	fmt.Fprintf(b, "  %s  %s, %s\n", l.label("sev."+f.Severity.String(), 8), f.Rule, how)
	fmt.Fprintf(b, "    %s\n", title)
	fmt.Fprintf(b, "    %s %s\n", l.t("evidence"), evidence)
	if hint := l.tr.Fix(f.FixID, f.Hint); hint != "" {
		fmt.Fprintf(b, "    %s %s\n", l.t("try"), hint)
	}
}
