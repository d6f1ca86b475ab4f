package oneshot

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// WriteCheckLang prints `gpuscope check`'s verdict in tr's language: the
// last snapshot as --once prints it, then every finding with its evidence
// and first fix, then the seven-step checklist of each GPU a finding names
// (GPU 0's when none does). Plain lines that do not depend on the
// terminal: a block for a ticket.
func WriteCheckLang(w io.Writer, s sampler.Snapshot, d *diagnose.Diagnosis, span time.Duration, tr *i18n.Tr) error {
	t := words{tr}
	if err := writeSnapshot(w, s, t); err != nil {
		return err
	}
	var b strings.Builder
	var fs []diagnose.Finding
	samples := 0
	if d != nil {
		fs, samples = safe.Clean(d.Findings), d.Samples // command lines in evidence: shown, never obeyed
	}
	over := map[string]any{"Span": span.Round(time.Second).String(), "Samples": tr.N("report.samples", samples)}
	if worst, ok := diagnose.Worst(fs); ok {
		over["Findings"], over["Worst"] = tr.N("findings.count", len(fs)), t.check("worst."+worst.String(), nil)
		b.WriteString("\n" + t.check("verdict", over) + "\n")
	} else {
		b.WriteString("\n" + t.check("verdict_none", over) + "\n")
	}
	writeNotJudged(&b, t, span)
	labels := []string{t.check("evidence", nil), t.check("estimated", nil), t.check("first_fix", nil), t.check("more", nil)}
	lw := 0
	for _, l := range labels {
		lw = max(lw, ansi.StringWidth(l))
	}
	label := func(i int) string { return "  " + i18n.Pad(labels[i], lw) + " " }
	for _, f := range fs {
		title, evidence, estimated := tr.Finding(f)
		fmt.Fprintf(&b, "[%s] %s  (%s)\n", strings.ToUpper(t.check("worst."+f.Severity.String(), nil)), title, f.Rule)
		b.WriteString(label(0) + evidence + "\n")
		if estimated != "" {
			b.WriteString(label(1) + estimated + "\n")
		}
		b.WriteString(label(2) + tr.Fix(f.FixID, f.Hint) + "\n")
		fmt.Fprintf(&b, "%sgpuscope explain %s%s\n", label(3), f.Rule, langArg(tr.Lang()))
	}
	if d != nil {
		for _, gi := range checklistGPUs(fs, len(d.Checklists)) {
			writeChecklist(&b, t, s, gi, safe.Clean(d.Checklists[gi]))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// langArg is what explain needs to show the page in the same language.
func langArg(lang string) string {
	if i18n.Match(lang) == "zh" {
		return " --lang zh"
	}
	return ""
}

// writeNotJudged names the rules the span was too short for, so "no
// findings" is never read as "healthy" for them.
func writeNotJudged(b *strings.Builder, t words, span time.Duration) {
	rules := diagnose.NotJudged(span)
	if len(rules) == 0 {
		return
	}
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = fmt.Sprintf("%s (%s)", r.ID, diagnose.MinData(r.ID))
	}
	need := diagnose.JudgeAllSpan()
	b.WriteString(t.check("not_judged", map[string]any{"Span": span.Round(time.Second).String(), "Rules": strings.Join(ids, ", "), "For": need.String()}) + "\n")
}

func (t words) check(id string, data map[string]any) string { return t.tr.T("check."+id, data) }

// checklistGPUs are the GPU positions whose checklist is printed.
func checklistGPUs(fs []diagnose.Finding, n int) []int {
	var out []int
	seen := map[int]bool{}
	for _, f := range fs {
		if f.GPU >= 0 && f.GPU < n && !seen[f.GPU] {
			seen[f.GPU] = true
			out = append(out, f.GPU)
		}
	}
	if len(out) == 0 && n > 0 {
		out = []int{0}
	}
	return out
}

func writeChecklist(b *strings.Builder, t words, s sampler.Snapshot, gi int, steps []diagnose.Step) {
	name := t.check("node", nil)
	if gi < len(s.GPUs) {
		name = fmt.Sprintf("GPU %d", s.GPUs[gi].Index)
	}
	b.WriteString("\n" + t.check("checklist", map[string]any{"Of": name}) + "\n")
	for _, st := range steps {
		title := st.Title
		if t.tr.Lang() != "en" && st.N >= 1 && st.N <= 7 {
			title = t.tr.T(fmt.Sprintf("step.%d", st.N))
		}
		fmt.Fprintf(b, "  %d. [%-4s] %s", st.N, st.Status, title)
		if st.Detail != "" {
			b.WriteString(t.check("step_sep", nil) + t.tr.Text(st.I18n, st.Detail))
		}
		b.WriteString("\n")
	}
}
