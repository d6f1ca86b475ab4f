package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// text writes the report for a terminal: one block per GPU, then findings.
// Lines never depend on the terminal's width.
func (l words) text(w io.Writer, r *summary.Report) error {
	var b strings.Builder
	e := r.Environment
	fmt.Fprintf(&b, "%s: %s", l.t("title"), summary.InputName(r.File))
	if r.Format != "" {
		fmt.Fprintf(&b, " (%s)", r.Format)
	}
	b.WriteString("\n")
	const lw = 11 // the head's label column, in cells
	fmt.Fprintf(&b, "%s%s\n", l.label("range", lw), l.rangeOf(r.Range))
	fmt.Fprintf(&b, "%s%s  %s %s  CUDA %s\n", l.label("host", lw), orNA(e.Host), l.t("driver"), orNA(e.Driver), orNA(e.CUDA))
	fmt.Fprintf(&b, "%s%s\n", l.label("gpus", lw), orNA(strings.Join(e.GPUModels, ", ")))
	if en := l.energyTotal(r); en != "" {
		fmt.Fprintf(&b, "%s%s\n", l.label("energy_label", lw), en)
	}
	for _, a := range r.Absent {
		fmt.Fprintf(&b, "%s%s\n", l.label("note", lw), a)
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(&b, "%s%s\n", l.label("warning", lw), wn)
	}
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "%s%s\n", l.label("read", lw), s)
	}
	if r.Topology != nil {
		for _, s := range r.Topology.Summary {
			fmt.Fprintf(&b, "%s%s\n", l.label("topology", lw), s)
		}
	}
	const gw = 13 // a GPU block's label column
	for i := 0; i < len(r.GPUs); i++ {
		g := &r.GPUs[i]
		if j := unusedRun(r, i); j > i+1 {
			fmt.Fprintf(&b, "\n%s\n", l.unusedLine(r.GPUs[i:j]))
			i = j - 1
			continue
		}
		fmt.Fprintf(&b, "\nGPU %d  %s  (%s)", g.Index, orNA(g.Name), l.tr.N("report.samples", g.Samples))
		if g.Lost {
			b.WriteString("  " + l.t("lost"))
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "  %s%s\n", l.label("gpu_util", gw), l.dist(g.Util))
		fmt.Fprintf(&b, "  %s%s\n", l.label("sm_active", gw), l.dist(g.SMActive))
		fmt.Fprintf(&b, "  %s%s\n", l.label("tensor", gw), l.dist(g.TensorActive))
		fmt.Fprintf(&b, "  %s%s\n", l.label("mem_peak", gw), l.mem(g))
		fmt.Fprintf(&b, "  %s%s\n", l.label("power_label", gw), l.power(g))
		fmt.Fprintf(&b, "  %s%s\n", l.label("energy_label", gw), l.energy(g))
		fmt.Fprintf(&b, "  %s%s\n", l.label("temp_max", gw), units.Spaced.Celsius(g.TempMax))
		fmt.Fprintf(&b, "  %s%s\n", l.label("throttled", gw), l.throttle(g))
		if v := l.virtual(g); v != "" {
			fmt.Fprintf(&b, "  %s%s\n", l.label("virtual", gw), v)
		}
		for _, v := range g.VGPUs {
			fmt.Fprintf(&b, "  %s%s\n", l.label("vgpu", gw), l.vgpu(v))
		}
	}
	if idle, lines := l.energyJobs(r); lines != nil {
		fmt.Fprintf(&b, "\n%s\n", l.t("energy_jobs_head", "Idle", idle))
		for _, s := range lines {
			b.WriteString("  " + s + "\n")
		}
	}
	if total, lines := l.gpuHours(r); lines != nil {
		fmt.Fprintf(&b, "\n%s\n", l.t("gpu_hours_head", "Total", total))
		for _, s := range lines {
			b.WriteString("  " + s + "\n")
		}
	}
	fmt.Fprintf(&b, "\n%s\n", l.t("findings_head", "N", len(r.Findings), "From", l.findingsFrom(r)))
	if len(r.Findings) == 0 {
		b.WriteString("  " + l.none(r) + "\n")
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		title, evidence, estimated, hint := l.finding(f)
		fmt.Fprintf(&b, "  %s  %s  %s  pid %s  %s → %s  %s\n", l.label("sev."+f.Severity.String(), 8), f.Rule, l.where(f.GPU), pidLabel(f.PID),
			stamp(f.FirstSeen), stamp(f.LastSeen), l.episodes(f))
		fmt.Fprintf(&b, "    %s\n", title)
		fmt.Fprintf(&b, "    %s %s\n", l.t("evidence"), evidence)
		if estimated != "" {
			fmt.Fprintf(&b, "    %s %s\n", l.t("estimated"), estimated)
		}
		if hint != "" {
			fmt.Fprintf(&b, "    %s %s\n", l.t("try"), hint)
		}
		for _, line := range f.Lines {
			fmt.Fprintf(&b, "    %s %s\n", l.t("read_from"), line)
		}
	}
	_, err := io.WriteString(w, safe.Text(b.String())) // file contents: escape control characters
	return err
}

// mdRow writes a row of the markdown's environment table.
func (l words) mdRow(b *strings.Builder, k, v string) { fmt.Fprintf(b, "| %s | %s |\n", l.t(k), v) }

// Markdown writes the report as the benchmark.md of [gpu-idle-pipeline] §8.1: the
// environment, the source, per-GPU figures, findings, and what the log cannot
// hold but a benchmark needs ([gpu-idle-pipeline] §6).
func (l words) markdown(w io.Writer, r *summary.Report) error {
	var b strings.Builder
	e := r.Environment
	fmt.Fprintf(&b, "# %s: %s\n\n", l.t("md.title"), md(summary.InputName(r.File)))
	b.WriteString("## " + l.t("md.environment") + "\n\n| | |\n|---|---|\n")
	row := func(k, v string) { l.mdRow(&b, k, v) }
	fill := "_" + l.t("md.fill_in") + "_"
	row("host", md(orNA(e.Host)))
	row("gpus", md(orNA(strings.Join(e.GPUModels, ", "))))
	if en := l.energyTotal(r); en != "" {
		row("energy_label", md(en))
	}
	row("driver", md(orNA(e.Driver)))
	row("md.cuda", md(orNA(e.CUDA)))
	row("md.framework", fill)
	row("md.launch", fill)
	src := "`" + strings.ReplaceAll(summary.InputName(r.File), "`", "'") + "`"
	if r.Format != "" {
		src += " (" + md(r.Format) + ")"
	}
	row("md.source", src)
	row("range", md(l.rangeOf(r.Range)))
	row("md.findings", md(l.findingsFrom(r)))

	b.WriteString("\n## " + l.t("gpus") + "\n\n")
	b.WriteString(l.t("md.gpus_header") + "\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i := range r.GPUs {
		g := &r.GPUs[i]
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s |\n",
			g.Index, md(orNA(g.Name)), units.Percent(distMean(g.Util), 1), units.Percent(distPart(g.Util, "p5"), 1), units.Percent(distPart(g.Util, "p50"), 1),
			units.Percent(distPart(g.Util, "p95"), 1), units.Percent(distMean(g.SMActive), 1), units.Percent(distPart(g.SMActive, "p50"), 1),
			units.Percent(distMean(g.TensorActive), 1), md(l.mem(g)), units.Spaced.Watts(g.PowerMean), units.Spaced.Watts(g.PowerMax),
			units.Percent(g.PowerShareMean, 0), units.Percent(g.PowerShareMax, 0), md(l.energy(g)), units.Spaced.Celsius(g.TempMax), md(l.throttle(g)))
	}

	if idle, lines := l.energyJobs(r); lines != nil {
		fmt.Fprintf(&b, "\n## %s\n\n", l.t("md.energy_jobs_head"))
		for _, s := range append(lines, idle) {
			b.WriteString("- " + md(s) + "\n")
		}
	}
	if total, lines := l.gpuHours(r); lines != nil {
		fmt.Fprintf(&b, "\n## %s\n\n", l.t("md.gpu_hours_head"))
		for _, s := range append([]string{total}, lines...) {
			b.WriteString("- " + md(s) + "\n")
		}
	}
	fmt.Fprintf(&b, "\n## %s\n\n", l.t("md.findings_head"))
	if len(r.Findings) == 0 {
		b.WriteString(l.mdNone(r) + "\n")
	} else {
		b.WriteString(l.t("md.findings_header") + "\n|---|---|---|---|---|---|---|---|\n")
		for i := range r.Findings {
			f := &r.Findings[i]
			_, evidence, _, _ := l.finding(f)
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s | %s | %s | %s |\n", l.t("sev."+f.Severity.String()), f.Rule, l.where(f.GPU),
				pidLabel(f.PID), stamp(f.FirstSeen), stamp(f.LastSeen), l.episodes(f), md(evidence))
		}
		b.WriteString("\n" + l.t("md.first_things") + "\n\n")
		for i := range r.Findings {
			f := &r.Findings[i]
			title, _, estimated, hint := l.finding(f)
			b.WriteString("- " + l.t("md.finding_on", "Rule", "`"+f.Rule+"`", "Where", l.where(f.GPU), "Title", md(title)))
			if hint != "" {
				fmt.Fprintf(&b, " — %s", md(hint))
			}
			if estimated != "" {
				fmt.Fprintf(&b, " (%s)", md(estimated))
			}
			if len(f.Lines) > 0 {
				b.WriteString(" " + l.t("md.read_from", "Lines", md(strings.Join(f.Lines, "; "))))
			}
			b.WriteString("\n")
		}
	}
	if r.Topology != nil {
		b.WriteString("\n## " + l.t("md.topology") + "\n\n")
		for _, s := range r.Topology.Summary {
			fmt.Fprintf(&b, "- %s\n", md(s))
		}
	}
	if len(r.Sections) > 0 {
		b.WriteString("\n## " + l.t("md.what_read") + "\n\n")
		for _, s := range r.Sections {
			fmt.Fprintf(&b, "- %s\n", md(s))
		}
	}
	if len(r.Absent)+len(r.Warnings) > 0 {
		b.WriteString("\n## " + l.t("md.notes") + "\n\n")
		for _, a := range append(append([]string(nil), r.Absent...), r.Warnings...) {
			fmt.Fprintf(&b, "- %s\n", md(a))
		}
	}
	b.WriteString("\n" + l.t("md.record_next"))
	_, err := io.WriteString(w, safe.Text(b.String())) // file contents: escape control characters
	return err
}

// md escapes text for a markdown table cell.
func md(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
}
