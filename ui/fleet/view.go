// Package fleet renders a GPU fleet read from Prometheus (or scraped
// directly by `--nodes`): one row per node, one cell per GPU coloured by
// utilisation, sorted by waste, with the fleet's findings and each node's.
// It gets plain values (fleetsnap.Fleet and the fleetdiag results) from a
// loader main injects: it never queries Prometheus nor scrapes a node.
package fleet

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// View is what one refresh yields.
type View struct {
	Source   string // the server's URL
	Fleet    fleetsnap.Fleet
	Counts   fleetdiag.Counts
	Findings []fleetdiag.Finding
	// Nodes holds each node's diagnosis, by key.
	Nodes   map[fleetsnap.NodeKey]fleetdiag.NodeResult
	IdleFor time.Duration
	// Undiagnosed counts dcgm-exporter-only nodes this refresh did not
	// diagnose (beyond the cap); opening one diagnoses it.
	Undiagnosed int
}

// NewView tallies and diagnoses a fleet.
func NewView(source string, f fleetsnap.Fleet, idleFor time.Duration, nodes map[fleetsnap.NodeKey]fleetdiag.NodeResult) View {
	return View{Source: source, Fleet: f, Counts: fleetdiag.Count(f), Findings: fleetdiag.Fleet(f, idleFor), Nodes: nodes, IdleFor: idleFor}
}

// cellRunes shade a GPU's cell by utilisation, eighths from ▁ to █.
var cellRunes = []rune("▁▂▃▄▅▆▇█")

// Cell is one GPU's character: its utilisation, · when unknown, × when
// its node is down.
func Cell(g fleetsnap.GPU, up bool) rune {
	switch {
	case !up:
		return '×'
	case !g.Util.OK:
		return '·'
	}
	i := int(g.Util.V / 100 * float64(len(cellRunes)))
	return cellRunes[min(max(i, 0), len(cellRunes)-1)]
}

func findingsCell(l words, n fleetsnap.Node) string {
	var parts []string
	for _, f := range n.Findings {
		parts = append(parts, fmt.Sprintf("%s(%s)", f.Rule, l.where(f.GPU)))
	}
	return strings.Join(parts, " ")
}

// nameWidth is the node column's width in cells: the longest name, at
// least 12 and at most limit (0: no limit, as --once prints for pasting).
func nameWidth(f fleetsnap.Fleet, limit int) int {
	w := 12
	for _, n := range f.Nodes {
		w = max(w, ansi.StringWidth(n.Name))
	}
	if limit > 0 {
		w = min(w, max(12, limit))
	}
	return w
}

// rowFixed is a node row's width besides its name and findings: the GPU
// cells, busy, memory, waste and energy columns (lang.go's row).
const rowFixed = 49

// WriteTextLang prints the fleet for --once in tr's language: summary,
// rows, fleet findings and each node's findings with where they came from.
func WriteTextLang(w io.Writer, v View, tr *i18n.Tr) error {
	l := words{tr}
	var b strings.Builder
	fmt.Fprintf(&b, "gpuscope fleet · %s · %s\n", v.Source, l.summary(v))
	if s := l.span(v.Fleet); s != "" {
		b.WriteString(s + "\n")
	}
	nw := nameWidth(v.Fleet, 0)
	b.WriteString(l.header(nw) + "\n")
	for _, n := range v.Fleet.Nodes {
		b.WriteString(l.row(n, nw) + "\n")
	}
	if len(v.Fleet.Nodes) == 0 {
		b.WriteString(l.t("no_targets") + "\n")
	}
	b.WriteString("\n" + l.t("fleet_findings") + "\n")
	if len(v.Findings) == 0 {
		b.WriteString("  " + l.t("none") + "\n")
	}
	for _, f := range v.Findings {
		fmt.Fprintf(&b, "  %s %s: %s\n", ui.SeverityGlyph(f.Severity), l.title(f), strings.Join(f.Nodes, ", "))
	}
	b.WriteString("\n" + l.t("node_findings") + "\n")
	any := false
	for _, n := range v.Fleet.Nodes {
		r, ok := v.Nodes[n.Key]
		if !ok || !n.Up {
			continue
		}
		for _, f := range r.Findings {
			any = true
			fmt.Fprintf(&b, "  %s %-20s %s %s (%s)\n", ui.SeverityGlyph(f.Severity), n.Name, l.where(f.GPU), f.Rule, l.from(r.From))
		}
		if len(r.NeedsHost) > 0 {
			fmt.Fprintf(&b, "  · %-20s %s\n", n.Name, l.t("needs_host", "Rules", strings.Join(r.NeedsHost, ", ")))
		}
	}
	if !any {
		b.WriteString("  " + l.t("none_open") + "\n")
	}
	if v.Undiagnosed > 0 {
		b.WriteString("  · " + l.t("undiagnosed", "Count", v.Undiagnosed) + "\n")
	}
	for _, p := range v.Fleet.Problems {
		fmt.Fprintf(&b, "%s%s\n", l.t("problem"), p)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
