package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

// Text writes the report for a terminal: one block per GPU, then findings.
// Lines never depend on the terminal's width.
func Text(w io.Writer, r *summary.Report) error {
	var b strings.Builder
	e := r.Environment
	fmt.Fprintf(&b, "gpuscope report: %s", summary.InputName(r.File))
	if r.Format != "" {
		fmt.Fprintf(&b, " (%s)", r.Format)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "range      %s\n", rangeText(r.Range))
	fmt.Fprintf(&b, "host       %s  driver %s  CUDA %s\n", orNA(e.Host), orNA(e.Driver), orNA(e.CUDA))
	fmt.Fprintf(&b, "GPUs       %s\n", orNA(strings.Join(e.GPUModels, ", ")))
	for _, a := range r.Absent {
		fmt.Fprintf(&b, "note       %s\n", a)
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(&b, "warning    %s\n", wn)
	}
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "read       %s\n", s)
	}
	if r.Topology != nil {
		for _, s := range r.Topology.Summary {
			fmt.Fprintf(&b, "topology   %s\n", s)
		}
	}
	for i := range r.GPUs {
		g := &r.GPUs[i]
		fmt.Fprintf(&b, "\nGPU %d  %s  (%d samples)", g.Index, orNA(g.Name), g.Samples)
		if g.Lost {
			b.WriteString("  LOST (fell off the bus)")
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "  GPU-Util     %s\n", distText(g.Util))
		fmt.Fprintf(&b, "  SM active    %s\n", distText(g.SMActive))
		fmt.Fprintf(&b, "  tensor       %s\n", distText(g.TensorActive))
		fmt.Fprintf(&b, "  memory peak  %s\n", memText(g))
		fmt.Fprintf(&b, "  power        %s\n", powerText(g))
		fmt.Fprintf(&b, "  temp max     %s\n", celsius(g.TempMax))
		fmt.Fprintf(&b, "  throttled    %s\n", throttleText(g))
	}
	fmt.Fprintf(&b, "\nFINDINGS (%d, %s)\n", len(r.Findings), findingsFromText(r))
	if len(r.Findings) == 0 {
		b.WriteString("  none\n")
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		fmt.Fprintf(&b, "  %-8s  %s  %s  pid %s  %s → %s  %s\n", f.Severity, f.Rule, gpuLabel(f.GPU), pidLabel(f.PID),
			stamp(f.FirstSeen), stamp(f.LastSeen), episodesText(f))
		fmt.Fprintf(&b, "    %s\n", f.Title)
		fmt.Fprintf(&b, "    evidence: %s\n", f.Evidence)
		if f.Estimated != "" {
			fmt.Fprintf(&b, "    estimated: %s\n", f.Estimated)
		}
		if f.Hint != "" {
			fmt.Fprintf(&b, "    try: %s\n", f.Hint)
		}
		for _, l := range f.Lines {
			fmt.Fprintf(&b, "    read from: %s\n", l)
		}
	}
	_, err := io.WriteString(w, safe.Text(b.String())) // file contents: escape control characters
	return err
}

// Markdown writes the report as the benchmark.md of [gpu-idle-pipeline] §8.1: the
// environment, the source, per-GPU figures, findings, and what the log cannot
// hold but a benchmark needs ([gpu-idle-pipeline] §6).
func Markdown(w io.Writer, r *summary.Report) error {
	var b strings.Builder
	e := r.Environment
	fmt.Fprintf(&b, "# Benchmark: %s\n\n", md(summary.InputName(r.File)))
	b.WriteString("## Environment\n\n| | |\n|---|---|\n")
	row := func(k, v string) { fmt.Fprintf(&b, "| %s | %s |\n", k, v) }
	row("host", md(orNA(e.Host)))
	row("GPUs", md(orNA(strings.Join(e.GPUModels, ", "))))
	row("driver", md(orNA(e.Driver)))
	row("CUDA", md(orNA(e.CUDA)))
	row("framework (e.g. PyTorch) version", "_fill in_")
	row("launch command", "_fill in_")
	src := "`" + strings.ReplaceAll(summary.InputName(r.File), "`", "'") + "`"
	if r.Format != "" {
		src += " (" + md(r.Format) + ")"
	}
	row("source", src)
	row("range", md(rangeText(r.Range)))
	row("findings", md(findingsFromText(r)))

	b.WriteString("\n## GPUs\n\n")
	b.WriteString("| GPU | name | GPU-Util mean | p5 | p50 | p95 | SM active mean | SM p50 | tensor mean | memory peak | power mean | power max | % of limit (mean / max) | temp max | throttled |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i := range r.GPUs {
		g := &r.GPUs[i]
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s |\n",
			g.Index, md(orNA(g.Name)), pct(distMean(g.Util)), pct(distPart(g.Util, "p5")), pct(distPart(g.Util, "p50")),
			pct(distPart(g.Util, "p95")), pct(distMean(g.SMActive)), pct(distPart(g.SMActive, "p50")),
			pct(distMean(g.TensorActive)), md(memText(g)), watts(g.PowerMean), watts(g.PowerMax),
			pctInt(g.PowerShareMean), pctInt(g.PowerShareMax), celsius(g.TempMax), md(throttleText(g)))
	}

	fmt.Fprintf(&b, "\n## Findings\n\n")
	if len(r.Findings) == 0 {
		b.WriteString("None.\n")
	} else {
		b.WriteString("| severity | rule | GPU | PID | first seen | last seen | open | evidence |\n|---|---|---|---|---|---|---|---|\n")
		for i := range r.Findings {
			f := &r.Findings[i]
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s | %s | %s | %s |\n", f.Severity, f.Rule, gpuLabel(f.GPU),
				pidLabel(f.PID), stamp(f.FirstSeen), stamp(f.LastSeen), episodesText(f), md(f.Evidence))
		}
		b.WriteString("\nFirst things to try:\n\n")
		for i := range r.Findings {
			f := &r.Findings[i]
			fmt.Fprintf(&b, "- `%s` on %s: %s", f.Rule, gpuLabel(f.GPU), md(f.Title))
			if f.Hint != "" {
				fmt.Fprintf(&b, " — %s", md(f.Hint))
			}
			if f.Estimated != "" {
				fmt.Fprintf(&b, " (%s)", md(f.Estimated))
			}
			if len(f.Lines) > 0 {
				fmt.Fprintf(&b, " Read from: %s.", md(strings.Join(f.Lines, "; ")))
			}
			b.WriteString("\n")
		}
	}
	if r.Topology != nil {
		b.WriteString("\n## Topology\n\n")
		for _, s := range r.Topology.Summary {
			fmt.Fprintf(&b, "- %s\n", md(s))
		}
	}
	if len(r.Sections) > 0 {
		b.WriteString("\n## What was read\n\n")
		for _, s := range r.Sections {
			fmt.Fprintf(&b, "- %s\n", md(s))
		}
	}
	if len(r.Absent)+len(r.Warnings) > 0 {
		b.WriteString("\n## Notes on the input\n\n")
		for _, a := range append(append([]string(nil), r.Absent...), r.Warnings...) {
			fmt.Fprintf(&b, "- %s\n", md(a))
		}
	}
	b.WriteString(recordNextTime)
	_, err := io.WriteString(w, safe.Text(b.String())) // file contents: escape control characters
	return err
}

// recordNextTime is what a GPU log cannot hold but a before/after benchmark
// needs ([gpu-idle-pipeline] §6: fixed step count, total time, utilisation distribution,
// peak memory, accuracy check; §8.1: versions and the launch command).
const recordNextTime = `
## What to record next time

- **Fixed step count** (e.g. 1000 steps) and the **total time** for those steps: keep the step count the same before and after a change, or the comparison means nothing ([gpu-idle-pipeline] §6).
- **Peak memory** from ` + "`torch.cuda.max_memory_allocated()`" + ` (this report shows device memory in use, which includes the caching allocator's reserve).
- The **GPU-Util distribution** over the same window (this report's mean / p5 / p50 / p95), not a single reading.
- The **validation metric** after mixed precision, batch-size or model changes.
- Framework and CUDA versions and the exact **launch command** ([gpu-idle-pipeline] §8.1).
`

// md escapes text for a markdown table cell.
func md(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
}
