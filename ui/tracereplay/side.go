package tracereplay

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/timeline"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

// say is message id in the interface's language, {{.Fields}} from kv.
//
// Not inlined: a copy at each call site cost the binary (docs/benchmarks.md,
// "Recordings: the report read from the footer").
//
//go:noinline
func (m Model) say(id string, kv ...any) string {
	if m.opts.Tr == nil {
		return id
	}
	return m.opts.Tr.Say(id, kv...)
}

// plural is message id for n of something, in the interface's language.
func (m Model) plural(id string, n int, kv ...any) string {
	if m.opts.Tr == nil {
		return id
	}
	data := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		data[kv[i].(string)] = kv[i+1]
	}
	return m.opts.Tr.N(id, n, data)
}

// actName is an activity's word.
func (m Model) actName(a timeline.Activity) string {
	return m.say([...]string{"tracereplay.compute", "tracereplay.comm", "tracereplay.memory", "tracereplay.sync"}[min(int(a), 3)])
}

// cursorLine is the cursor's time, the strip and what ran on it there:
// "▏1.25ms  r0 s7  compute 1.02ms at 1.2ms  volta_sgemm_128x64_nn".
func (m Model) cursorLine(w int) string {
	st := &m.opts.Styles
	list := m.strips.List()
	if len(list) == 0 {
		return ""
	}
	s := list[min(m.sel, len(list)-1)]
	parts := []string{st.Accent.Render("▏" + m.rel(m.cur)), st.Bold.Render(m.label(s, list))}
	src := m.drawn()
	hit, ok := timeline.Hit{}, false
	if d := src.Find(s); d != nil {
		hit, ok = src.At(d, m.cur, m.colWidth())
	}
	if !ok {
		parts = append(parts, st.Muted.Render(m.say("tracereplay.idle")))
	} else {
		parts = append(parts, m.actStyle(hit.Act).Render(m.actName(hit.Act)),
			m.say("tracereplay.event", "Dur", clock(hit.Dur), "At", m.rel(hit.TS)),
			safe.String(hit.Name))
	}
	return ansi.Truncate(strings.Join(parts, "  "), w, "…")
}

// legend is the activities' colours and the keys.
func (m Model) legend() string {
	var parts []string
	for a := range timeline.Activities {
		parts = append(parts, m.actStyle(a).Render("█")+" "+m.actName(a))
	}
	return strings.Join(parts, "  ") + m.opts.Styles.Muted.Render("  ·  "+m.say("tracereplay.keys"))
}

// findingLines are the trace's findings in n lines of w cells: each its
// severity, rule, whether the trace confirms it, and (room allowing) its
// evidence and first fix, wrapped.
func (m Model) findingLines(w, n int) []string {
	st := &m.opts.Styles
	var out []string
	switch {
	case !m.done:
		return []string{st.Muted.Render(m.say("tracereplay.analysing"))}
	case m.err != nil:
		return []string{st.Crit.Render(ansi.Wrap(m.say("tracereplay.failed", "Err", m.err.Error()), w, ""))}
	case m.report == nil:
		return nil
	}
	fs := m.report.Findings
	out = append(out, st.Title.Render(m.say("report.trace_findings", "N", len(fs))))
	if len(fs) == 0 {
		return append(out, st.OK.Render(m.say("tracereplay.none")))
	}
	// As much of each as the lines hold: all of it, without the fix,
	// without the evidence, else one line each.
	var more []string
	for level := 3; level >= 0; level-- {
		if more = m.findingsIn(fs, w, level); len(out)+len(more) <= n {
			break
		}
	}
	out = append(out, more...)
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// findingsIn is the findings' lines at a level of detail: 0 one line
// each; 1 the rule, then the title; 2 and the evidence; 3 and the fix.
func (m Model) findingsIn(fs []timeline.Finding, w int, level int) []string {
	st := &m.opts.Styles
	var out []string
	for _, f := range fs {
		title, evidence := m.finding(f)
		how := m.say("report.trace_points")
		if f.Confirmed {
			how = m.say("report.trace_confirmed")
		}
		mark := sevStyle(m, f.Severity).Render("●")
		if level == 0 {
			out = append(out, ansi.Truncate(mark+" "+st.Bold.Render(f.Rule)+" "+title, w, "…"))
			continue
		}
		out = append(out, ansi.Truncate(mark+" "+st.Bold.Render(f.Rule)+st.Muted.Render(", "+how), w, "…"))
		out = append(out, wrapped("  ", title, w)...)
		if level >= 2 {
			out = append(out, wrapped("  ", st.Muted.Render(m.say("report.evidence")+" "+evidence), w)...)
		}
		if level < 3 || m.opts.Tr == nil {
			continue
		}
		if fix := m.opts.Tr.Fix(f.FixID, f.Hint); fix != "" {
			out = append(out, wrapped("  ", st.Accent.Render(m.say("report.try"))+" "+safe.String(fix), w)...)
		}
	}
	return out
}

func (m Model) finding(f timeline.Finding) (title, evidence string) {
	if m.opts.Tr == nil {
		return safe.String(f.Title), safe.String(f.Evidence)
	}
	title, evidence, _ = m.opts.Tr.Finding(diagnose.Finding{Title: f.Title, Evidence: f.Evidence, I18n: f.I18n})
	return safe.String(title), safe.String(evidence)
}

func sevStyle(m Model, s diagnose.Severity) interface{ Render(...string) string } {
	switch s {
	case diagnose.Critical:
		return m.opts.Styles.Crit
	case diagnose.Warning:
		return m.opts.Styles.Warn
	}
	return m.opts.Styles.Info
}

// wrapped is s wrapped to w cells, each line indented.
func wrapped(indent, s string, w int) []string {
	lines := strings.Split(ansi.Wrap(s, max(10, w-len(indent)), " "), "\n")
	for i, l := range lines {
		lines[i] = indent + l
	}
	return lines
}
