package oneshot

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
)

// WriteCheck prints `gpuscope check`'s verdict: the last snapshot as --once
// prints it, then every finding with its evidence and first fix, then the
// seven-step checklist of each GPU a finding names (GPU 0's when none does).
// Plain lines that do not depend on the terminal: a block for a ticket.
func WriteCheck(w io.Writer, s sampler.Snapshot, d *diagnose.Diagnosis, span time.Duration) error {
	if err := Write(w, s); err != nil {
		return err
	}
	var b strings.Builder
	var fs []diagnose.Finding
	samples := 0
	if d != nil {
		fs, samples = d.Findings, d.Samples
	}
	fmt.Fprintf(&b, "\ndiagnosis over %s (%d samples): ", span.Round(time.Second), samples)
	if worst, ok := diagnose.Worst(fs); ok {
		fmt.Fprintf(&b, "%s, worst %s\n", plural(len(fs), "finding"), worst)
	} else {
		b.WriteString("no findings\n")
	}
	for _, f := range fs {
		f = cleanFinding(f)
		fmt.Fprintf(&b, "[%s] %s  (%s)\n", strings.ToUpper(f.Severity.String()), f.Title, f.Rule)
		fmt.Fprintf(&b, "  evidence:  %s\n", f.Evidence)
		if f.Estimated != "" {
			fmt.Fprintf(&b, "  estimated: %s\n", f.Estimated)
		}
		fmt.Fprintf(&b, "  first fix: %s\n", f.Hint)
		fmt.Fprintf(&b, "  more:      gpuscope explain %s\n", f.Rule)
	}
	if d != nil {
		for _, gi := range checklistGPUs(fs, len(d.Checklists)) {
			writeChecklist(&b, s, gi, d.Checklists[gi])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

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

func writeChecklist(b *strings.Builder, s sampler.Snapshot, gi int, steps []diagnose.Step) {
	name := "node"
	if gi < len(s.GPUs) {
		name = fmt.Sprintf("GPU %d", s.GPUs[gi].Index)
	}
	fmt.Fprintf(b, "\nchecklist, %s:\n", name)
	for _, st := range steps {
		fmt.Fprintf(b, "  %d. [%-4s] %s", st.N, st.Status, st.Title)
		if st.Detail != "" {
			fmt.Fprintf(b, ": %s", safe.Text(st.Detail))
		}
		b.WriteString("\n")
	}
}

func cleanFinding(f diagnose.Finding) diagnose.Finding {
	f.Title, f.Evidence, f.Hint, f.Estimated = safe.Text(f.Title), safe.Text(f.Evidence), safe.Text(f.Hint), safe.Text(f.Estimated)
	return f
}

// plural is "1 GPU", "2 GPUs"; pluralOf takes an irregular plural.
func plural(n int, word string) string { return pluralOf(n, word, word+"s") }

func pluralOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
