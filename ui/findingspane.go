package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// findingsPane is "why idle": the findings, worst first, grouped by GPU,
// each with its evidence and first fix.
type findingsPane struct {
	cached
	c      *common
	cursor int
	top    int
	// picked is the finding the user moved to; the cursor follows it when
	// new findings reorder the list.
	picked *diagnose.Key
	// lineOf maps each rendered line to its finding index (-1: none), for clicks.
	lineOf []int
}

func (p *findingsPane) View() string { return p.view(p.render) }

func (p *findingsPane) move(d int) {
	p.cursor = min(max(p.cursor+d, 0), max(0, len(p.c.findings)-1))
	if f, ok := p.selected(); ok {
		k := f.Key()
		p.picked = &k
	}
	p.invalidate()
}

// follow puts the cursor back on the picked finding after new data.
func (p *findingsPane) follow() {
	if p.picked == nil {
		return
	}
	for i := range p.c.findings {
		if p.c.findings[i].Key() == *p.picked {
			p.cursor = i
			return
		}
	}
}

// selected is the finding under the cursor, if any.
func (p *findingsPane) selected() (diagnose.Finding, bool) {
	fs := p.c.findings
	if len(fs) == 0 {
		return diagnose.Finding{}, false
	}
	return fs[min(p.cursor, len(fs)-1)], true
}

func (p *findingsPane) render() []string {
	c, st := p.c, p.c.st
	p.lineOf = p.lineOf[:0]
	fs := c.findings
	focused := c.focus == focusFindings
	info := ""
	if len(fs) > 0 {
		info = c.count("findings.count", len(fs))
	}
	lines := []string{title(st, p.c.word("pane.why_idle"), info, focused, p.w)}
	if len(fs) == 0 {
		return append(lines, "  "+p.allClear())
	}
	cur := min(p.cursor, len(fs)-1) // the Model clamps the cursor (clampCursors); drawing never moves it
	rows := p.h - 1
	// Lines per finding: 3 (title, evidence, fix) or 2 (evidence → fix) when
	// they all fit, else 1.
	per := 1
	switch {
	case rows >= 3*len(fs):
		per = 3
	case rows >= 2*len(fs):
		per = 2
	}
	fit := max(1, rows/per)
	p.top = min(max(p.top, cur-fit+1), cur)
	p.top = max(0, min(p.top, len(fs)-fit))
	const indent = "          " // under the rule id
	owner := -1                 // the finding the lines so far belong to
	defer func() {
		for len(p.lineOf) < p.h {
			p.lineOf = append(p.lineOf, owner)
		}
	}()
	for i := p.top; i < len(fs) && i < p.top+fit; i++ {
		for len(p.lineOf) < len(lines) {
			p.lineOf = append(p.lineOf, owner)
		}
		owner = i
		f := fs[i]
		where := padRight(p.c.word("label.node"), 5)
		if f.GPU >= 0 {
			where = fmt.Sprintf("GPU %d", f.GPU)
		}
		if i > p.top && fs[i-1].GPU == f.GPU { // grouped: name the GPU once
			where = "     "
		}
		title, evidence, estimated := p.c.findingText(f)
		head := SeverityMark(st, f.Severity) + " " + where + "  " + st.Bold.Render(f.Rule) + "  " + title
		detail := evidence
		if f.Hint != "" {
			detail += " → " + p.c.fix(f)
		}
		if per == 1 {
			lines = append(lines, cursor(st, i == cur, focused, head+st.Muted.Render(" — "+detail), p.w))
			continue
		}
		lines = append(lines, cursor(st, i == cur, focused, head, p.w))
		if per == 2 {
			lines = append(lines, indent+st.Muted.Render(detail))
			continue
		}
		hint := p.c.fix(f)
		if estimated != "" {
			hint += " (" + p.c.word("label.estimated") + ": " + estimated + ")"
		}
		lines = append(lines, indent+evidence, indent+st.Accent.Render("→ ")+hint)
	}
	return lines
}

// allClear says what was checked, so "nothing found" is itself evidence.
func (p *findingsPane) allClear() string {
	c, st := p.c, p.c.st
	switch {
	case c.latest() == nil:
		return st.Muted.Render(c.word("allclear.waiting"))
	case c.diag == nil:
		return st.Muted.Render(c.word("allclear.off"))
	}
	span := c.diag.Span(c.interval)
	rules := c.word("allclear.rules")
	if c.opts.Rules > 0 {
		rules = c.say("allclear.rules_n", map[string]any{"Count": c.opts.Rules})
	}
	data := map[string]any{"Span": fmtSpan(span), "Rules": rules}
	if span < minJudgeSpan {
		return st.Muted.Render(c.say("allclear.collecting", data))
	}
	return st.OK.Render("✓") + c.say("allclear.done", data)
}

// minJudgeSpan: most rules need 30 s of samples before they can fire
// (diagnose's workload and clock windows), so a shorter history is not an
// all-clear.
const minJudgeSpan = 30 * time.Second

// sidePane shows the selected GPU's three levels ([gpu-idle-pipeline] §1: is a kernel
// running → are the SMs filled → are they computing) and the checklist.
type sidePane struct {
	cached
	c *common
}

func (p *sidePane) View() string { return p.view(p.render) }

func (p *sidePane) render() []string {
	c, st := p.c, p.c.st
	gpu := fmt.Sprintf("GPU %d", c.selGPU)
	lines := []string{title(st, p.c.word("pane.three_levels"), gpu, false, p.w)}
	if !c.hasLevels {
		lines = append(lines, st.Muted.Render("  n/a"), "", "")
	} else {
		for i, lv := range []struct {
			name string
			v    diagnose.Level
		}{{c.word("level.kernel"), c.levels.KernelRunning}, {c.word("level.sm"), c.levels.SMFilled}, {c.word("level.compute"), c.levels.Computing}} {
			arrow := "  "
			if i > 0 {
				arrow = "→ "
			}
			lines = append(lines, arrow+padRight(lv.name, 15)+padLeft(units.Percent(lv.v.Value, 0), 4)+"  "+
				p.verdict(lv.v.Verdict, padRight(c.wordOr("verdict."+lv.v.Verdict, lv.v.Verdict), 6))+" "+st.Muted.Render(c.tr.Text(lv.v.I18n, lv.v.Label)))
		}
	}
	lines = append(lines, title(st, p.c.word("pane.checklist"), gpu, false, p.w))
	if len(c.steps) == 0 {
		return append(lines, st.Muted.Render("  n/a"))
	}
	for _, s := range c.steps {
		title := s.Title
		if c.tr != nil && c.tr.Lang() != "en" && s.N >= 1 && s.N <= 7 {
			title = c.word(fmt.Sprintf("step.%d", s.N)) // the seven steps of [gpu-idle-handbook] §7.1
		}
		line := fmt.Sprintf("%s %d %s", p.stepMark(s.Status), s.N, title)
		if s.Detail != "" {
			line += st.Muted.Render(" — " + c.tr.Text(s.I18n, s.Detail))
		}
		lines = append(lines, line)
	}
	return lines
}

// verdict colours a level's answer, shown as text: yes (or ok) good, n/a
// muted, else a warning.
func (p *sidePane) verdict(v, text string) string {
	st := p.c.st
	switch w := strings.TrimSpace(v); {
	case w == "yes" || w == "ok":
		return st.OK.Render(text)
	case strings.HasPrefix(w, "n/a"):
		return st.Muted.Render(text)
	}
	return st.Warn.Render(text)
}

// stepMark is the status glyph: it reads without colour.
func (p *sidePane) stepMark(status string) string {
	st := p.c.st
	switch status {
	case "ok":
		return st.OK.Render("✓")
	case "warn":
		return st.Warn.Render("▲")
	case "bad":
		return st.Crit.Render("✖")
	case "todo":
		return st.Muted.Render("?")
	}
	return st.Muted.Render("–")
}

// fmtSpan is a window length as people say it: "120 s" up to 5 min, then "12m".
func fmtSpan(d time.Duration) string {
	if d <= 5*time.Minute {
		return fmt.Sprintf("%.0f s", d.Seconds())
	}
	return fmtDuration(d)
}
